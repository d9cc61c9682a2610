package company.data.compactor.compact.exec;

import company.data.compactor.compact.Bin;
import company.data.compactor.compact.CompactionPlan;
import company.data.compactor.compact.CompactionResult;
import company.data.compactor.compact.Layout;
import company.data.compactor.compact.PartitionResult;
import company.data.compactor.delta.CommitOutcome;
import company.data.compactor.delta.NewDataFile;
import company.data.compactor.delta.RewriteCommit;
import company.data.compactor.delta.RewriteCommitter;
import company.data.compactor.error.Errors;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.Scratch;
import company.data.compactor.storage.Storage;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Executes a {@link CompactionPlan}, one commit per partition so a timeout loses at most the
 * partition in flight. For each bin: read the inputs (in place on local disk, else copied to
 * scratch), rewrite with DuckDB, verify rows and checksum, upload; then commit the partition's
 * removes and adds. New files are invisible until the commit; on a conflict they are deleted; when
 * the commit's outcome is unknown they are kept (vacuum removes them later if the commit did not
 * land).
 */
public final class CompactionExecutor implements company.data.compactor.compact.Compactor {

  private static final System.Logger LOG = System.getLogger(CompactionExecutor.class.getName());

  /** Concurrent input downloads from object stores. */
  static final int PARALLEL_DOWNLOADS = 8;

  private final Storage storage;
  private final RewriteCommitter committer;
  private final RewriteSettings settings;
  private final Path scratchRoot;
  private final Clock clock;
  private final BinRewriter.Factory rewriters;

  /**
   * @param scratchRoot where per-run scratch directories are created (and deleted)
   */
  public CompactionExecutor(
      Storage storage, RewriteCommitter committer, RewriteSettings settings, Path scratchRoot, Clock clock) {
    this(storage, committer, settings, scratchRoot, clock, DuckDbRewriter::new);
  }

  CompactionExecutor(
      Storage storage,
      RewriteCommitter committer,
      RewriteSettings settings,
      Path scratchRoot,
      Clock clock,
      BinRewriter.Factory rewriters) {
    this.rewriters = rewriters;
    this.storage = storage;
    this.committer = committer;
    this.settings = settings;
    this.scratchRoot = scratchRoot;
    this.clock = clock;
  }

  /**
   * Runs {@code plan} against the table it was made from.
   *
   * @throws company.data.compactor.error.CompactorException UNSUPPORTED_TABLE for files with
   *     deletion vectors; OPERATION_FAILED when storage, DuckDB or a commit of unknown outcome
   *     fails (earlier partitions stay committed)
   */
  @Override
  public CompactionResult execute(CompactionPlan plan, TableSnapshot snapshot) {
    long started = clock.millis();
    refuseDeletionVectors(plan, snapshot);
    Map<String, List<Bin>> byPartition = new LinkedHashMap<>();
    for (Bin bin : plan.bins()) {
      byPartition.computeIfAbsent(bin.partition().label(), k -> new ArrayList<>()).add(bin);
    }
    List<PartitionResult> results = new ArrayList<>();
    long version = plan.readVersion();
    int done = 0;
    try (Scratch scratch = Scratch.create(scratchRoot);
        BinRewriter rewriter = rewriters.open(settings, scratch.dir())) {
      for (Map.Entry<String, List<Bin>> entry : byPartition.entrySet()) {
        PartitionResult result = compactPartition(plan, snapshot, entry.getKey(), entry.getValue(), scratch, rewriter);
        results.add(result);
        if (result.committedVersion() != null) {
          version = Math.max(version, result.committedVersion());
        }
        done++;
        LOG.log(
            Level.INFO,
            "compaction progress: table={0} partition={1} status={2} files={3}->{4} partitions_done={5}/{6}",
            snapshot.location(),
            entry.getKey(),
            result.status(),
            result.filesRemoved(),
            result.filesAdded(),
            done,
            byPartition.size());
      }
    } catch (SQLException | IOException e) {
      throw Errors.operationFailed("rewriting files of " + snapshot.location(), e);
    }
    return new CompactionResult(plan.readVersion(), version, results, clock.millis() - started);
  }

  private static void refuseDeletionVectors(CompactionPlan plan, TableSnapshot snapshot) {
    for (Bin bin : plan.bins()) {
      for (DataFile file : bin.files()) {
        if (file.hasDeletionVector()) {
          throw Errors.unsupportedTable(
              snapshot.location(),
              "file " + file.logPath() + " has a deletion vector (table feature deletionVectors);"
                  + " rewriting such files is not supported yet, nothing was written. Purge them"
                  + " first (Delta Lake: REORG TABLE ... APPLY (PURGE)).");
        }
      }
    }
  }

  private PartitionResult compactPartition(
      CompactionPlan plan,
      TableSnapshot snapshot,
      String partition,
      List<Bin> bins,
      Scratch scratch,
      BinRewriter rewriter)
      throws IOException, SQLException {
    List<DataFile> removed = new ArrayList<>();
    List<NewDataFile> added = new ArrayList<>();
    long rows = 0;
    boolean handedToCommitter = false;
    try {
      for (Bin bin : bins) {
        Path binDir = scratch.newDirectory("bin-" + java.util.UUID.randomUUID());
        try {
          List<Path> inputs = localInputs(bin, Files.createDirectories(binDir.resolve("in")));
          DuckDbRewriter.Result result =
              rewriter.rewrite(
                  snapshot.location(),
                  snapshot.schema(),
                  snapshot.properties(),
                  inputs,
                  binDir.resolve("out"),
                  plan.options().targetFileSizeBytes(),
                  settings.compression(),
                  plan.options().layout() == Layout.Z_ORDER ? plan.options().zOrderColumns() : List.of());
          if (!result.verified()) {
            return PartitionResult.notCommitted(
                partition,
                PartitionResult.Status.VERIFICATION_FAILED,
                "inputs had " + result.input().rows() + " rows (checksum " + result.input().hashSum()
                    + "), outputs " + result.output().rows() + " (checksum " + result.output().hashSum()
                    + "); nothing was committed");
          }
          for (DuckDbRewriter.Written written : result.outputs()) {
            added.add(upload(snapshot, bin, written, tags(plan)));
          }
          removed.addAll(bin.files());
          rows += result.input().rows();
        } finally {
          Scratch.deleteTree(binDir);
        }
      }
      long bytesRemoved = removed.stream().mapToLong(DataFile::sizeBytes).sum();
      long bytesAdded = added.stream().mapToLong(NewDataFile::sizeBytes).sum();
      RewriteCommit commit =
          new RewriteCommit(
              snapshot.location(),
              plan.readVersion(),
              removed,
              added,
              "OPTIMIZE",
              operationParameters(plan),
              Map.of(
                  "numRemovedFiles", String.valueOf(removed.size()),
                  "numAddedFiles", String.valueOf(added.size()),
                  "numRemovedBytes", String.valueOf(bytesRemoved),
                  "numAddedBytes", String.valueOf(bytesAdded),
                  "numBins", String.valueOf(bins.size()),
                  "numOutputRows", String.valueOf(rows),
                  "partition", partition));
      handedToCommitter = true;
      CommitOutcome outcome = committer.commitRewrite(commit);
      if (outcome instanceof CommitOutcome.Conflicted conflicted) {
        deleteUploaded(added);
        LOG.log(Level.WARNING, "compaction conflict: table={0} partition={1}: {2}", snapshot.location(), partition, conflicted.reason());
        return PartitionResult.notCommitted(
            partition,
            PartitionResult.Status.CONFLICTED,
            "a concurrent commit conflicts (" + conflicted.reason() + "); the new files were deleted,"
                + " the table is as the other writer left it");
      }
      CommitOutcome.Committed committed = (CommitOutcome.Committed) outcome;
      return new PartitionResult(
          partition,
          PartitionResult.Status.COMMITTED,
          committed.version(),
          removed.size(),
          added.size(),
          bytesRemoved,
          bytesAdded,
          rows,
          null,
          committed.hookFailures());
    } finally {
      if (!handedToCommitter && !added.isEmpty()) {
        // Failed before the commit was attempted: nothing references these files, so they are
        // cleanable. Once the committer has them the outcome may be unknown, and they stay.
        deleteQuietly(snapshot, added);
      }
    }
  }

  private void deleteQuietly(TableSnapshot snapshot, List<NewDataFile> added) {
    try {
      deleteUploaded(added);
    } catch (IOException e) {
      LOG.log(Level.WARNING, "could not delete {0} uploaded files of {1}; vacuum will remove them: {2}",
          added.size(), snapshot.location(), e.getMessage());
    }
  }

  /**
   * Local files of the bin's inputs: in place on local disk; on object stores downloaded in
   * parallel ({@value #PARALLEL_DOWNLOADS} at a time) into the bin's scratch directory, which
   * bounds scratch use by the bin size.
   */
  private List<Path> localInputs(Bin bin, Path inDir) throws IOException {
    List<DataFile> files = bin.files();
    if (storage.localFile(files.get(0).path()).isPresent()) {
      List<Path> local = new ArrayList<>();
      for (DataFile file : files) {
        local.add(storage.localFile(file.path()).orElseThrow());
      }
      return local;
    }
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(Math.min(PARALLEL_DOWNLOADS, files.size()));
    try {
      List<java.util.concurrent.Future<Path>> downloads = new ArrayList<>();
      for (int i = 0; i < files.size(); i++) {
        String path = files.get(i).path();
        String name = "input-" + i + ".parquet";
        downloads.add(pool.submit(() -> Scratch.localCopy(storage, path, inDir, name)));
      }
      List<Path> local = new ArrayList<>();
      for (java.util.concurrent.Future<Path> download : downloads) {
        local.add(download.get());
      }
      return local;
    } catch (java.util.concurrent.ExecutionException e) {
      throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while downloading inputs", e);
    } finally {
      pool.shutdownNow();
    }
  }

  private static Map<String, String> operationParameters(CompactionPlan plan) {
    String predicate =
        plan.options().partitionFilter().isAll() ? "[]" : "[\"" + plan.options().partitionFilter().text().replace("\"", "\\\"") + "\"]";
    String zOrder =
        plan.options().layout() == Layout.Z_ORDER
            ? plan.options().zOrderColumns().stream().map(c -> "\"" + c + "\"").toList().toString().replace(" ", "")
            : "[]";
    return Map.of(
        "predicate", predicate,
        "zOrderBy", zOrder,
        "targetSize", String.valueOf(plan.options().targetFileSizeBytes()),
        "auto", "false");
  }

  /** The {@code add.tags} of outputs: Z-ordered files record their columns, so reruns can skip them. */
  private static Map<String, String> tags(CompactionPlan plan) {
    if (plan.options().layout() != Layout.Z_ORDER) {
      return Map.of();
    }
    return Map.of(DataFile.ZORDER_TAG, plan.options().zOrderColumns().stream()
        .map(c -> "\"" + c.replace("\\", "\\\\").replace("\"", "\\\"") + "\"")
        .collect(java.util.stream.Collectors.joining(",", "[", "]")));
  }

  private NewDataFile upload(TableSnapshot snapshot, Bin bin, DuckDbRewriter.Written written, Map<String, String> tags)
      throws IOException {
    DataFile sibling = bin.files().get(0);
    String name = written.path().getFileName().toString().replace(".parquet", "." + settings.compression().toLowerCase(Locale.ROOT) + ".parquet");
    boolean relative = !sibling.logPath().startsWith("/") && !sibling.logPath().contains("://") && !sibling.logPath().startsWith("file:");
    String logPath;
    String path;
    if (relative) {
      int slash = sibling.logPath().lastIndexOf('/');
      logPath = (slash < 0 ? "" : sibling.logPath().substring(0, slash + 1)) + name;
      path = sibling.path().substring(0, sibling.path().lastIndexOf('/') + 1) + name;
    } else {
      logPath = name;
      path = snapshot.location().child(name);
    }
    try (InputStream in = Files.newInputStream(written.path());
        OutputStream out = storage.create(path)) {
      in.transferTo(out);
    } catch (IOException e) {
      // Named apart from the rewrite: the data was rewritten and verified; storage refused it.
      throw Errors.operationFailed("uploading rewritten file " + path + " of partition " + bin.partition().label()
          + " (nothing of this partition was committed; its files uploaded so far are deleted)", e);
    }
    return new NewDataFile(path, logPath, written.sizeBytes(), bin.partition(), written.statsJson(), clock.millis(), tags);
  }

  private void deleteUploaded(List<NewDataFile> added) throws IOException {
    storage.deleteAll(added.stream().map(NewDataFile::path).toList());
  }

}
