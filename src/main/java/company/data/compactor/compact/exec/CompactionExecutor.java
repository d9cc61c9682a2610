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
import company.data.compactor.model.PartitionValues;
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
 * Executes a {@link CompactionPlan}, one commit per partition (identified by its values, never by
 * a label) so a timeout loses at most the partition in flight. For each bin: read the inputs (in
 * place on local disk, else copied to scratch), measure them with the {@link RewriteVerifier},
 * rewrite with the {@link BinRewriter}, measure the outputs as the new add actions will describe
 * them, and upload only when readers would see the same; then commit the partition's removes and
 * adds. Outputs go under the table root, in the directory their partition values name. New files
 * are invisible until the commit; on a conflict they are deleted; when the commit's outcome is
 * unknown they are kept (vacuum removes them later if the commit did not land).
 */
public final class CompactionExecutor implements company.data.compactor.compact.Compactor {

  private static final System.Logger LOG = System.getLogger(CompactionExecutor.class.getName());
  private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

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
    Map<PartitionValues, List<Bin>> byPartition = new LinkedHashMap<>();
    for (Bin bin : plan.bins()) {
      byPartition.computeIfAbsent(bin.partition(), k -> new ArrayList<>()).add(bin);
    }
    List<PartitionResult> results = new ArrayList<>();
    long version = plan.readVersion();
    int done = 0;
    try (Scratch scratch = Scratch.create(scratchRoot);
        BinRewriter rewriter = rewriters.open(settings, scratch.dir());
        RewriteVerifier verifier = new RewriteVerifier(snapshot.schema(), settings, scratch.dir())) {
      for (Map.Entry<PartitionValues, List<Bin>> entry : byPartition.entrySet()) {
        PartitionResult result =
            compactPartition(plan, snapshot, entry.getKey(), entry.getValue(), scratch, new Roles(rewriter, verifier));
        results.add(result);
        if (result.committedVersion() != null) {
          version = Math.max(version, result.committedVersion());
        }
        done++;
        LOG.log(
            Level.INFO,
            "compaction progress: table={0} partition={1} status={2} files={3}->{4} partitions_done={5}/{6}",
            snapshot.location(),
            entry.getKey().label(),
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

  /** The writer and the verifier of one execution; the verifier never sees the writer's query. */
  private record Roles(BinRewriter rewriter, RewriteVerifier verifier) {}

  private PartitionResult compactPartition(
      CompactionPlan plan,
      TableSnapshot snapshot,
      PartitionValues partition,
      List<Bin> bins,
      Scratch scratch,
      Roles roles)
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
          List<RewriteVerifier.Measured> inputSide = new ArrayList<>();
          for (int i = 0; i < inputs.size(); i++) {
            inputSide.add(new RewriteVerifier.Measured(inputs.get(i), bin.files().get(i).partition()));
          }
          RewriteVerifier.Fingerprint before = roles.verifier().measure(inputSide);
          List<DuckDbRewriter.Written> written =
              roles.rewriter().rewrite(
                  snapshot.location(),
                  snapshot.schema(),
                  snapshot.properties(),
                  inputs,
                  binDir.resolve("out"),
                  plan.options().targetFileSizeBytes(),
                  settings.compression(),
                  plan.options().layout() == Layout.Z_ORDER ? plan.options().zOrderColumns() : List.of());
          List<NewDataFile> outputs = new ArrayList<>();
          List<RewriteVerifier.Measured> outputSide = new ArrayList<>();
          for (DuckDbRewriter.Written file : written) {
            NewDataFile output = newFile(snapshot, bin.partition(), file, tags(plan));
            outputs.add(output);
            outputSide.add(new RewriteVerifier.Measured(file.path(), output.partition()));
          }
          List<String> differences = before.differences(roles.verifier().measure(outputSide));
          if (!differences.isEmpty()) {
            return PartitionResult.notCommitted(
                partition,
                PartitionResult.Status.VERIFICATION_FAILED,
                "readers would see other data after the rewrite (" + String.join(", ", differences)
                    + "); nothing was committed");
          }
          for (int i = 0; i < written.size(); i++) {
            upload(written.get(i), outputs.get(i));
            added.add(outputs.get(i));
          }
          removed.addAll(bin.files());
          rows += before.rows();
        } catch (RewriteVerifier.Refused e) {
          return PartitionResult.notCommitted(
              partition, PartitionResult.Status.VERIFICATION_FAILED, e.getMessage() + "; nothing was committed");
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
                  "partition", partition.label()));
      handedToCommitter = true;
      CommitOutcome outcome = committer.commitRewrite(commit);
      if (outcome instanceof CommitOutcome.Conflicted conflicted) {
        deleteUploaded(added);
        LOG.log(Level.WARNING, "compaction conflict: table={0} partition={1}: {2}", snapshot.location(), partition.label(), conflicted.reason());
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

  /**
   * Delta's {@code operationParameters}: string values, the lists among them JSON arrays written by
   * Jackson (a column named {@code we"ird} stays valid JSON).
   */
  private static Map<String, String> operationParameters(CompactionPlan plan) {
    List<String> predicate =
        plan.options().partitionFilter().isAll() ? List.of() : List.of(plan.options().partitionFilter().text());
    List<String> zOrder = plan.options().layout() == Layout.Z_ORDER ? plan.options().zOrderColumns() : List.of();
    return Map.of(
        "predicate", jsonArray(predicate),
        "zOrderBy", jsonArray(zOrder),
        "targetSize", String.valueOf(plan.options().targetFileSizeBytes()),
        "auto", "false");
  }

  /** The {@code add.tags} of outputs: Z-ordered files record their columns, so reruns can skip them. */
  private static Map<String, String> tags(CompactionPlan plan) {
    if (plan.options().layout() != Layout.Z_ORDER) {
      return Map.of();
    }
    return Map.of(DataFile.ZORDER_TAG, jsonArray(plan.options().zOrderColumns()));
  }

  private static String jsonArray(List<String> values) {
    try {
      return JSON.writeValueAsString(values);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("a list of strings could not be serialised", e);
    }
  }

  /**
   * The add action of a written file: under the table root, in the directory {@link
   * PartitionValues#directory()} names (as Spark and delta-rs lay partitions out), whatever
   * directories the inputs were in; the log path is that path URI-encoded.
   */
  private NewDataFile newFile(
      TableSnapshot snapshot, PartitionValues partition, DuckDbRewriter.Written written, Map<String, String> tags) {
    String name = written.path().getFileName().toString()
        .replace(".parquet", "." + settings.compression().toLowerCase(Locale.ROOT) + ".parquet");
    String directory = partition.directory();
    String relative = directory.isEmpty() ? name : directory + "/" + name;
    return new NewDataFile(snapshot.location().child(relative), LogPaths.encode(relative), written.sizeBytes(),
        partition, written.statsJson(), clock.millis(), tags);
  }

  private void upload(DuckDbRewriter.Written written, NewDataFile file) throws IOException {
    try (InputStream in = Files.newInputStream(written.path());
        OutputStream out = storage.create(file.path())) {
      in.transferTo(out);
    } catch (IOException e) {
      // Named apart from the rewrite: the data was rewritten and verified; storage refused it.
      throw Errors.operationFailed("uploading rewritten file " + file.path() + " of partition " + file.partition().label()
          + " (nothing of this partition was committed; its files uploaded so far are deleted)", e);
    }
  }

  private void deleteUploaded(List<NewDataFile> added) throws IOException {
    storage.deleteAll(added.stream().map(NewDataFile::path).toList());
  }

}
