package company.data.compactor.delta.kernel;

import company.data.compactor.delta.TableWriter;
import company.data.compactor.error.Errors;
import company.data.compactor.model.PartitionValues;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSchema;
import company.data.compactor.storage.Storage;
import company.data.compactor.storage.StoredObject;
import io.delta.kernel.DataWriteContext;
import io.delta.kernel.Operation;
import io.delta.kernel.Snapshot;
import io.delta.kernel.TableManager;
import io.delta.kernel.Transaction;
import io.delta.kernel.TransactionCommitResult;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.exceptions.KernelException;
import io.delta.kernel.expressions.Column;
import io.delta.kernel.expressions.Literal;
import io.delta.kernel.transaction.DataLayoutSpec;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.DateType;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterable;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.DataFileStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@link TableWriter} on Delta kernel: blind appends with stats, one commit per call. The snapshot
 * a commit leaves is kept for the next append to the same table (seeding the demo is 30 appends in
 * a row; loading each from the log again was a fifth of the seeding), and used only while the log
 * still ends at its version. Data files are written by kernel's Parquet writer, or by DuckDB
 * ({@link #withDuckDbDataFiles}); the transaction, its checks and the commit are kernel's either
 * way.
 */
public final class KernelTableWriter implements TableWriter {

  private static final System.Logger LOG = System.getLogger(KernelTableWriter.class.getName());

  private final Storage storage;
  private final Engine engine;
  private final Optional<Path> duckDbScratch;
  private final Map<String, Snapshot> latest = new ConcurrentHashMap<>();

  /** Writes tables on {@code storage}, data files with kernel's Parquet writer. */
  public KernelTableWriter(Storage storage) {
    this(storage, Optional.empty());
  }

  private KernelTableWriter(Storage storage, Optional<Path> duckDbScratch) {
    this.storage = storage;
    this.engine = KernelEngines.over(storage);
    this.duckDbScratch = duckDbScratch;
  }

  /**
   * Writes tables on {@code storage}, data files of plain columns (see {@link
   * DuckDbDataFiles#canWrite}) with DuckDB, in a scratch directory of its own under {@code
   * scratchRoot} for each {@link #appendAll} call; kernel's writer for any other. One DuckDB
   * database serves all appends of a call: the demo's 30 appends write in ~0.05 s, where kernel's
   * writer takes ~0.45 s to warm up in a fresh JVM.
   */
  public static KernelTableWriter withDuckDbDataFiles(Storage storage, Path scratchRoot) {
    return new KernelTableWriter(storage, Optional.of(scratchRoot));
  }

  @Override
  public void create(TableLocation location, TableSchema schema, Map<String, String> properties) {
    StructType struct = KernelTypes.toKernel(schema);
    DataLayoutSpec layout =
        schema.partitionColumns().isEmpty()
            ? DataLayoutSpec.noDataLayout()
            : DataLayoutSpec.partitioned(
                schema.partitionColumns().stream().map(Column::new).toList());
    try {
      Transaction txn =
          TableManager.buildCreateTableTransaction(
                  location.uri(), struct, KernelEngines.ENGINE_INFO)
              .withTableProperties(properties)
              .withDataLayoutSpec(layout)
              .build(engine);
      latest.remove(location.uri());
      remember(location, txn.commit(engine, CloseableIterable.emptyIterable()));
    } catch (KernelException | UncheckedIOException e) {
      throw Errors.operationFailed("creating the table " + location, e);
    }
  }

  @Override
  public long append(TableLocation location, PartitionValues partition, List<List<Object>> rows) {
    return appendAll(location, List.of(new Append(partition, rows)));
  }

  @Override
  public long appendAll(TableLocation location, List<Append> appends) {
    // Without a DuckDB scratch root, no database: kernel's writer writes every file.
    try (DuckDbDataFiles duckDb =
        duckDbScratch.isEmpty() ? null : DuckDbDataFiles.open(storage, duckDbScratch.get())) {
      if (duckDb != null && appends.size() > 1) {
        return appendWrittenAhead(location, appends, duckDb);
      }
      long version = -1;
      for (Append append : appends) {
        version = append(location, append, duckDb);
      }
      return version;
    } catch (IOException e) {
      throw Errors.operationFailed("writing data files of " + location, e);
    }
  }

  /**
   * The appends one after another, each in a commit of its own on this thread, while a thread of
   * its own writes their data files with DuckDB ahead of the commits (the demo's 30 files were a
   * third of its seeding). Files are written for the first append's transaction state. A later
   * append uses the file written ahead for it only while no one else has written to the table: the
   * log still ends at this writer's last commit, whose snapshot (with the first one's schema,
   * partitioning and properties: a blind append changes none) its transaction starts from.
   * Otherwise (another writer committed, the table was replaced) writing ahead stops, the files
   * written ahead for appends not yet committed are deleted, and the rest are written one by one as
   * without it. A failure of any kind stops it the same way; the file of a commit that failed is
   * kept (that commit may have landed). Deleting the unused files is best effort: one left behind
   * is in no commit, as after any writer that failed between writing a file and committing it.
   */
  private long appendWrittenAhead(
      TableLocation location, List<Append> appends, DuckDbDataFiles duckDb) throws IOException {
    Transaction first;
    Row firstState;
    StructType firstSchema;
    try {
      first = transaction(reusable(location), location);
      firstState = first.getTransactionState(engine);
      firstSchema = first.getSchema(engine);
      if (!physical(firstState, firstSchema, appends.get(0)).stream()
          .allMatch(b -> DuckDbDataFiles.canWrite(b.getData().getSchema()))) {
        // Kernel's writer writes these files (or refuses them), one append after another.
        long version = -1;
        for (Append append : appends) {
          version = append(location, append, duckDb);
        }
        return version;
      }
    } catch (KernelException | UncheckedIOException e) {
      throw Errors.operationFailed(appending(appends.get(0), location), e);
    }
    Ahead ahead = new Ahead();
    for (Append append : appends) {
      ahead.submit(() -> writeAhead(duckDb, firstState, firstSchema, append));
    }
    int i = 0;
    try {
      long version = -1;
      for (Transaction txn = first; i < appends.size(); i++) {
        if (i > 0) {
          Optional<Snapshot> ours = reusable(location);
          if (ours.isEmpty()) {
            break;
          }
          txn = transaction(ours, location);
        }
        version = commit(location, txn, appends.get(i), ahead.take(i));
      }
      ahead.stop();
      for (; i < appends.size(); i++) {
        version = append(location, appends.get(i), duckDb);
      }
      return version;
    } catch (KernelException | UncheckedIOException e) {
      throw Errors.operationFailed(appending(appends.get(i), location), e);
    } finally {
      ahead.stop();
    }
  }

  private static String appending(Append append, TableLocation location) {
    return "appending " + append.rows().size() + " rows to " + location;
  }

  /**
   * The data files written ahead, in the order of the appends, on a thread of its own: each
   * append's files are either taken (its commit is then attempted) or, once writing ahead stops,
   * deleted.
   */
  private final class Ahead {
    private final ExecutorService thread =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "data-files-ahead");
              t.setDaemon(true);
              return t;
            });
    private final AtomicBoolean stopped = new AtomicBoolean();
    private final List<Future<List<DataFileStatus>>> files = new ArrayList<>();
    private int taken;

    void submit(Callable<List<DataFileStatus>> write) {
      files.add(thread.submit(() -> stopped.get() ? List.of() : write.call()));
    }

    /**
     * The files of append {@code i} (taken in order), waiting for them when they are not written
     * yet; an interrupt is kept for the caller, not acted on, as a write on this thread would.
     */
    List<DataFileStatus> take(int i) throws IOException {
      taken = i + 1;
      boolean interrupted = false;
      try {
        while (true) {
          try {
            return files.get(i).get();
          } catch (InterruptedException e) {
            interrupted = true;
          }
        }
      } catch (ExecutionException e) {
        Throwable cause = e.getCause();
        if (cause instanceof IOException io) {
          throw io;
        }
        if (cause instanceof RuntimeException runtime) {
          throw runtime;
        }
        if (cause instanceof Error error) {
          throw error;
        }
        throw new IOException(cause);
      } finally {
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
      }
    }

    /**
     * Stops writing ahead (once; later calls do nothing), waits for a write under way, and deletes
     * every file not taken. The DuckDB database is the caller's alone again after. Never throws: a
     * file it cannot delete is named in a warning.
     */
    void stop() {
      if (stopped.getAndSet(true)) {
        return;
      }
      // Writes not begun see the flag and write nothing. Not Future.cancel: a write already under
      // way would go on, and its file be left behind.
      thread.shutdown();
      boolean interrupted = false;
      while (true) {
        try {
          if (thread.awaitTermination(1, TimeUnit.MINUTES)) {
            break;
          }
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
      List<String> unused = new ArrayList<>();
      for (Future<List<DataFileStatus>> f : files.subList(taken, files.size())) {
        try {
          f.get().forEach(status -> unused.add(status.getPath()));
        } catch (ExecutionException | InterruptedException e) {
          // Nothing was left: a write that fails deletes what it published.
        }
      }
      if (unused.isEmpty()) {
        return;
      }
      try {
        storage.deleteAll(unused);
      } catch (IOException | RuntimeException e) {
        LOG.log(
            Level.WARNING,
            "data files written ahead and not committed could not be deleted: files={0} error={1}",
            unused,
            e.toString());
      }
    }
  }

  /** Writes the data files of {@code append} with DuckDB for the transaction state given. */
  private List<DataFileStatus> writeAhead(
      DuckDbDataFiles duckDb, Row state, StructType schema, Append append) throws IOException {
    Map<String, Literal> partition = literals(schema, append.partition());
    DataWriteContext context = Transaction.getWriteContext(engine, state, partition);
    List<DataFileStatus> written = new ArrayList<>();
    for (FilteredColumnarBatch batch : physical(state, schema, append)) {
      written.add(
          duckDb.write(context.getTargetDirectory(), batch, context.getStatisticsColumns()));
    }
    return written;
  }

  /** The physical batches kernel makes of {@code append}'s rows for the transaction state given. */
  private List<FilteredColumnarBatch> physical(Row state, StructType schema, Append append) {
    CloseableIterator<FilteredColumnarBatch> logical =
        KernelIterators.of(
            List.of(
                new FilteredColumnarBatch(RowBatch.of(schema, append.rows()), Optional.empty())));
    List<FilteredColumnarBatch> batches = new ArrayList<>();
    try (CloseableIterator<FilteredColumnarBatch> physical =
        Transaction.transformLogicalData(
            engine, state, logical, literals(schema, append.partition()))) {
      physical.forEachRemaining(batches::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return batches;
  }

  /** Commits {@code append} in {@code txn} with its data files already written. */
  private long commit(
      TableLocation location, Transaction txn, Append append, List<DataFileStatus> written) {
    Row state = txn.getTransactionState(engine);
    StructType schema = txn.getSchema(engine);
    DataWriteContext context =
        Transaction.getWriteContext(engine, state, literals(schema, append.partition()));
    CloseableIterator<Row> actions =
        Transaction.generateAppendActions(engine, state, KernelIterators.of(written), context);
    TransactionCommitResult result =
        txn.commit(engine, CloseableIterable.inMemoryIterable(actions));
    remember(location, result);
    return result.getVersion();
  }

  /** A blind-append transaction on {@code snapshot}, else on the latest one in the log. */
  private Transaction transaction(Optional<Snapshot> snapshot, TableLocation location) {
    return snapshot
        .orElseGet(() -> TableManager.loadSnapshot(location.uri()).build(engine))
        .buildUpdateTableTransaction(KernelEngines.ENGINE_INFO, Operation.WRITE)
        .build(engine);
  }

  /** One append in one commit; its data file written by {@code duckDb}, or kernel when null. */
  private long append(TableLocation location, Append append, DuckDbDataFiles duckDb) {
    PartitionValues partition = append.partition();
    List<List<Object>> rows = append.rows();
    try {
      Snapshot snapshot = reusable(location).orElse(null);
      if (snapshot == null) {
        snapshot = TableManager.loadSnapshot(location.uri()).build(engine);
      }
      Transaction txn =
          snapshot
              .buildUpdateTableTransaction(KernelEngines.ENGINE_INFO, Operation.WRITE)
              .build(engine);
      Row state = txn.getTransactionState(engine);
      StructType schema = snapshot.getSchema();
      Map<String, Literal> partitionLiterals = literals(schema, partition);
      CloseableIterator<FilteredColumnarBatch> logical =
          KernelIterators.of(
              List.of(new FilteredColumnarBatch(RowBatch.of(schema, rows), Optional.empty())));
      CloseableIterator<FilteredColumnarBatch> physical =
          Transaction.transformLogicalData(engine, state, logical, partitionLiterals);
      DataWriteContext context = Transaction.getWriteContext(engine, state, partitionLiterals);
      CloseableIterator<DataFileStatus> written =
          write(duckDb, context, physical, context.getStatisticsColumns());
      CloseableIterator<Row> actions =
          Transaction.generateAppendActions(engine, state, written, context);
      TransactionCommitResult result =
          txn.commit(engine, CloseableIterable.inMemoryIterable(actions));
      remember(location, result);
      return result.getVersion();
    } catch (KernelException | UncheckedIOException e) {
      throw Errors.operationFailed("appending " + rows.size() + " rows to " + location, e);
    } catch (IOException e) {
      throw Errors.operationFailed("writing data files of " + location, e);
    }
  }

  /**
   * The data files of {@code physical}: DuckDB's when it is given and every batch has plain
   * columns, else kernel's writer's.
   */
  private CloseableIterator<DataFileStatus> write(
      DuckDbDataFiles duckDb,
      DataWriteContext context,
      CloseableIterator<FilteredColumnarBatch> physical,
      List<Column> statsColumns)
      throws IOException {
    if (duckDb == null) {
      return engine
          .getParquetHandler()
          .writeParquetFiles(context.getTargetDirectory(), physical, statsColumns);
    }
    List<FilteredColumnarBatch> batches = new ArrayList<>();
    try (physical) {
      physical.forEachRemaining(batches::add);
    }
    if (!batches.stream().allMatch(b -> DuckDbDataFiles.canWrite(b.getData().getSchema()))) {
      return engine
          .getParquetHandler()
          .writeParquetFiles(
              context.getTargetDirectory(), KernelIterators.of(batches), statsColumns);
    }
    List<DataFileStatus> written = new ArrayList<>();
    for (FilteredColumnarBatch batch : batches) {
      written.add(duckDb.write(context.getTargetDirectory(), batch, statsColumns));
    }
    return KernelIterators.of(written);
  }

  private void remember(TableLocation location, TransactionCommitResult result) {
    result
        .getPostCommitSnapshot()
        .ifPresentOrElse(
            snapshot -> latest.put(location.uri(), snapshot), () -> latest.remove(location.uri()));
  }

  /**
   * The snapshot our last commit to {@code location} left, when the log still ends at its version:
   * its commit file is there and no newer log file is (one listing; {@code _last_checkpoint} and
   * other names that are not versions do not count). Anything else (another writer, a table removed
   * or created again) loads the snapshot from the log.
   */
  private Optional<Snapshot> reusable(TableLocation location) throws IOException {
    Snapshot snapshot = latest.remove(location.uri());
    if (snapshot == null) {
      return Optional.empty();
    }
    String name = String.format("%020d", snapshot.getVersion());
    List<StoredObject> log;
    try {
      log = storage.listFrom(location.child("_delta_log/" + name + ".json"));
    } catch (java.io.FileNotFoundException e) {
      return Optional.empty();
    }
    boolean endsHere =
        !log.isEmpty()
            && log.get(0).name().equals(name + ".json")
            && log.stream()
                .filter(o -> !o.name().isEmpty() && Character.isDigit(o.name().charAt(0)))
                .allMatch(o -> o.name().startsWith(name + "."));
    return endsHere ? Optional.of(snapshot) : Optional.empty();
  }

  private static Map<String, Literal> literals(StructType schema, PartitionValues partition) {
    Map<String, Literal> literals = new LinkedHashMap<>();
    partition
        .values()
        .forEach(
            (column, value) -> {
              DataType type = schema.get(column).getDataType();
              Literal literal;
              if (value == null) {
                literal = Literal.ofNull(type);
              } else if (type instanceof DateType) {
                literal = Literal.ofDate((int) LocalDate.parse(value).toEpochDay());
              } else {
                literal = Literal.ofString(value);
              }
              literals.put(column, literal);
            });
    return literals;
  }
}
