package company.data.compactor.compact.exec;

import company.data.compactor.compact.Bin;
import company.data.compactor.compact.CompactionPlan;
import company.data.compactor.compact.CompactionResult;
import company.data.compactor.compact.PartitionResult;
import company.data.compactor.compact.exec.StageClock.Stage;
import company.data.compactor.delta.DeletionVectorLoader;
import company.data.compactor.delta.NewDataFile;
import company.data.compactor.delta.RewriteCommitter;
import company.data.compactor.error.CompactorException;
import company.data.compactor.error.Errors;
import company.data.compactor.lease.LeaseGuard;
import company.data.compactor.model.ColumnMappingMode;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.PartitionValues;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSchema;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.Scratch;
import company.data.compactor.storage.Storage;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Executes a {@link CompactionPlan}, one commit per partition (identified by its values, never by a
 * label) so a timeout loses at most the partition in flight, as a loop over three roles. For each
 * bin the {@link BinRunner} reads the inputs (in place on local disk, else copied to scratch) and
 * rewrites them; the {@link RewriteVerifier} measures the inputs and the outputs as the new add
 * actions will describe them; the runner uploads only when readers would see the same. Then the
 * {@link RewriteCommitManager} commits the partition's removes and adds and decides what may be
 * deleted. Outputs go under the table root, in the directory their partition values name. New files
 * are invisible until the commit; when the log proves the commit absent they are deleted; when the
 * outcome is unknown they are kept (vacuum removes them later if it did not land).
 */
public final class CompactionExecutor implements company.data.compactor.compact.Compactor {

  private static final System.Logger LOG = System.getLogger(CompactionExecutor.class.getName());

  private final Storage storage;
  private final RewriteCommitter committer;
  private final DeletionVectorLoader deletionVectors;
  private final RewriteSettings settings;
  private final Path scratchRoot;
  private final Clock clock;
  private final BinRewriter.Factory rewriters;
  private LeaseGuard guard = LeaseGuard.UNGUARDED;

  /**
   * @param deletionVectors loads the rows each input's deletion vector deletes, which the rewrite
   *     drops
   * @param scratchRoot where per-run scratch directories are created (and deleted)
   */
  public CompactionExecutor(
      Storage storage,
      RewriteCommitter committer,
      DeletionVectorLoader deletionVectors,
      RewriteSettings settings,
      Path scratchRoot,
      Clock clock) {
    this(storage, committer, deletionVectors, settings, scratchRoot, clock, DuckDbRewriter::new);
  }

  /**
   * This executor asking {@code guard} before each partition's commit: once the run's lease is lost
   * the partition in flight and every later one end {@code fenced}, their files deleted.
   */
  public CompactionExecutor guardedBy(LeaseGuard guard) {
    this.guard = guard;
    return this;
  }

  CompactionExecutor(
      Storage storage,
      RewriteCommitter committer,
      DeletionVectorLoader deletionVectors,
      RewriteSettings settings,
      Path scratchRoot,
      Clock clock,
      BinRewriter.Factory rewriters) {
    this.rewriters = rewriters;
    this.storage = storage;
    this.committer = committer;
    this.deletionVectors = deletionVectors;
    this.settings = settings;
    this.scratchRoot = scratchRoot;
    this.clock = clock;
  }

  /**
   * Runs {@code plan} against the table it was made from.
   *
   * @throws company.data.compactor.error.CompactorException OPERATION_FAILED when storage, DuckDB,
   *     a deletion vector's loading or a commit of unknown outcome fails (earlier partitions stay
   *     committed)
   */
  @Override
  public CompactionResult execute(CompactionPlan plan, TableSnapshot snapshot) {
    long started = clock.millis();
    StageClock stages = new StageClock();
    Map<PartitionValues, List<Bin>> byPartition = new LinkedHashMap<>();
    for (Bin bin : plan.bins()) {
      byPartition.computeIfAbsent(bin.partition(), k -> new ArrayList<>()).add(bin);
    }
    List<Bin> order = byPartition.values().stream().flatMap(List::stream).toList();
    Progress progress = new Progress(snapshot, plan.readVersion(), byPartition.size());
    try (Scratch scratch = Scratch.create(scratchRoot);
        RewriteVerifier verifier =
            new RewriteVerifier(
                snapshot.schema(),
                ColumnMappingMode.of(snapshot.properties()),
                settings,
                scratch.dir());
        BinRewriter rewriter = new OpenedOnFirstRewrite(rewriters, settings, scratch.dir())) {
      BinRunner runner = new BinRunner(storage, rewriter, settings, clock);
      for (PartitionValues partition : byPartition.keySet()) {
        runner.refuseOutputOutsideRoot(snapshot.location(), partition);
      }
      try (BinOverlap overlap =
          new BinOverlap(mode(order), runner, scratch, order, stages, progress::record)) {
        Roles roles =
            new Roles(
                runner, verifier, new RewriteCommitManager(storage, committer), stages, overlap);
        for (Map.Entry<PartitionValues, List<Bin>> entry : byPartition.entrySet()) {
          if (progress.fenced() != null) {
            // Commits still running record their partitions first.
            overlap.awaitLane();
            progress.record(notAttempted(entry.getKey(), progress.fenced()));
          } else {
            compactPartition(plan, snapshot, entry.getKey(), entry.getValue(), roles, progress);
          }
        }
        overlap.awaitLane();
      }
    } catch (SQLException | IOException e) {
      throw Errors.operationFailed("rewriting files of " + snapshot.location(), e);
    }
    return new CompactionResult(
        plan.readVersion(),
        progress.version(),
        progress.results(),
        clock.millis() - started,
        stages.timings());
  }

  /**
   * The rewriter, opened when the first bin is rewritten. Each bin's inputs are measured by the
   * verifier before the rewrite: the verifier takes the DuckDB database started ahead, and the
   * rewriter's, started ahead in turn, starts during that measurement instead of being waited for
   * (~14 ms on the demo). A rewriter that cannot open fails the first bin's rewrite, before
   * anything is committed, as it failed the compaction's start before.
   */
  private static final class OpenedOnFirstRewrite implements BinRewriter {
    private final BinRewriter.Factory factory;
    private final RewriteSettings settings;
    private final Path scratch;
    private BinRewriter opened;

    OpenedOnFirstRewrite(BinRewriter.Factory factory, RewriteSettings settings, Path scratch) {
      this.factory = factory;
      this.settings = settings;
      this.scratch = scratch;
    }

    private synchronized BinRewriter opened() throws SQLException, IOException {
      if (opened == null) {
        opened = factory.open(settings, scratch);
      }
      return opened;
    }

    @Override
    public List<DuckDbRewriter.Written> rewrite(
        TableLocation table,
        TableSchema schema,
        Map<String, String> properties,
        List<Path> inputs,
        DeletedRows deleted,
        Path outDir,
        long targetFileSizeBytes,
        String compression,
        List<String> zOrderColumns)
        throws SQLException, IOException {
      return opened()
          .rewrite(
              table,
              schema,
              properties,
              inputs,
              deleted,
              outDir,
              targetFileSizeBytes,
              compression,
              zOrderColumns);
    }

    @Override
    public synchronized void close() throws SQLException {
      if (opened != null) {
        opened.close();
      }
    }
  }

  /**
   * Object stores overlap the transfers with the rewrite; local storage reads inputs in place, so
   * there is nothing to overlap and bins go one after another.
   */
  private BinOverlap.Mode mode(List<Bin> order) {
    boolean local =
        !order.isEmpty() && storage.localFile(order.get(0).files().get(0).path()).isPresent();
    return local ? BinOverlap.Mode.SEQUENTIAL : BinOverlap.Mode.OVERLAPPED;
  }

  private static PartitionResult notAttempted(PartitionValues partition, String fenced) {
    return PartitionResult.notCommitted(
        partition,
        PartitionResult.Status.FENCED,
        "not attempted: the run lost the table's lease before it (" + fenced + ")");
  }

  /**
   * The partitions' results in plan order as they end (on object stores a partition's commit ends
   * in the commit lane, while later bins are rewritten), the version they reached and the first
   * fencing. Recorded from the caller's thread and the commit lane's, one at a time.
   */
  private static final class Progress {
    private final TableSnapshot snapshot;
    private final int partitions;
    private final List<PartitionResult> results = new ArrayList<>();
    private long version;
    private String fenced;

    Progress(TableSnapshot snapshot, long readVersion, int partitions) {
      this.snapshot = snapshot;
      this.version = readVersion;
      this.partitions = partitions;
    }

    synchronized void record(PartitionResult result) {
      if (result.status() == PartitionResult.Status.FENCED && fenced == null) {
        fenced = result.detail();
      }
      results.add(result);
      if (result.committedVersion() != null) {
        version = Math.max(version, result.committedVersion());
      }
      LOG.log(
          Level.INFO,
          "compaction progress: table={0} partition={1} status={2} files={3}->{4} partitions_done={5}/{6}",
          snapshot.location(),
          result.partition().label(),
          result.status(),
          result.filesRemoved(),
          result.filesAdded(),
          results.size(),
          partitions);
    }

    synchronized String fenced() {
      return fenced;
    }

    synchronized long version() {
      return version;
    }

    synchronized List<PartitionResult> results() {
      return List.copyOf(results);
    }
  }

  /**
   * The roles of one execution, each its own class: the runner reads and rewrites, the verifier
   * (its own database and queries) compares both sides, the commit manager commits and decides what
   * may be deleted; the overlap runs the transfers beside them on object stores.
   */
  private record Roles(
      BinRunner runner,
      RewriteVerifier verifier,
      RewriteCommitManager commits,
      StageClock stages,
      BinOverlap overlap) {}

  /**
   * Rewrites a partition's bins and hands them, verified, to the lane, which uploads them and then
   * commits them together (see {@link BinOverlap}); the partition's result is recorded in {@code
   * progress} when it ends. A bin that cannot be verified stops the partition before its commit;
   * whatever it had uploaded is deleted (nothing references it), after the lane is idle.
   */
  private void compactPartition(
      CompactionPlan plan,
      TableSnapshot snapshot,
      PartitionValues partition,
      List<Bin> bins,
      Roles roles,
      Progress progress)
      throws IOException, SQLException {
    BinOverlap overlap = roles.overlap();
    List<DataFile> removed = new ArrayList<>();
    List<NewDataFile> added = new ArrayList<>();
    long rows = 0;
    boolean handedOver = false;
    try {
      for (int b = 0; b < bins.size(); b++) {
        Bin bin = bins.get(b);
        BinOverlap.Fetched fetched = overlap.take(bin);
        Path binDir = fetched.binDir();
        List<Path> inputs = fetched.inputs();
        boolean binHandedOver = false;
        try {
          long t = System.nanoTime();
          DeletedRows deleted = deletedRows(snapshot, bin, inputs);
          roles.stages().since(Stage.DOWNLOAD, t);
          t = System.nanoTime();
          RewriteVerifier.Fingerprint before =
              roles.verifier().measure(inputSide(bin, inputs), deleted);
          roles.stages().since(Stage.VERIFY, t);
          t = System.nanoTime();
          List<BinRunner.Output> outputs =
              roles.runner().rewrite(plan, snapshot, bin, inputs, deleted, binDir.resolve("out"));
          roles.stages().since(Stage.REWRITE, t);
          t = System.nanoTime();
          roles
              .verifier()
              .refuseUnmappedOutputs(outputs.stream().map(o -> o.written().path()).toList());
          List<String> differences =
              before.differences(roles.verifier().measure(outputSide(outputs)));
          roles.stages().since(Stage.VERIFY, t);
          if (!differences.isEmpty() || progress.fenced() != null) {
            // Whatever the lanes were doing ends first: earlier partitions' results come before
            // this one's, and this partition's uploads so far are all in before any is deleted.
            overlap.awaitLane();
          }
          if (progress.fenced() != null) {
            progress.record(notAttempted(partition, progress.fenced()));
            return;
          }
          if (!differences.isEmpty()) {
            progress.record(
                PartitionResult.notCommitted(
                    partition,
                    PartitionResult.Status.VERIFICATION_FAILED,
                    "readers would see other data after the rewrite ("
                        + String.join(", ", differences)
                        + "); nothing was committed"));
            return;
          }
          // The inputs are no longer needed; the outputs stay until the lane has uploaded them.
          Scratch.deleteTree(binDir.resolve("in"));
          added.addAll(outputs.stream().map(BinRunner.Output::file).toList());
          removed.addAll(bin.files());
          rows += before.rows();
          List<NewDataFile> uploadedSoFar = List.copyOf(added);
          RewriteCommitManager.PartitionRewrite rewrite =
              b == bins.size() - 1
                  ? new RewriteCommitManager.PartitionRewrite(
                      partition, bins.size(), List.copyOf(removed), uploadedSoFar, rows)
                  : null;
          // An earlier failure (an upload's, or a commit's) is thrown while this partition still
          // owns
          // its uploads so far: nothing references them, so they are deleted.
          overlap.awaitTurn();
          // From here the bin, and with the last bin the commit, are the lanes': a commit of
          // unknown outcome keeps its files.
          binHandedOver = true;
          handedOver = rewrite != null;
          overlap.handOver(
              () -> upload(snapshot, outputs, uploadedSoFar, binDir, roles),
              rewrite == null ? null : partitionCommit(plan, snapshot, rewrite, roles, progress));
        } catch (RewriteVerifier.Refused e) {
          overlap.awaitLane();
          progress.record(
              progress.fenced() != null
                  ? notAttempted(partition, progress.fenced())
                  : PartitionResult.notCommitted(
                      partition,
                      PartitionResult.Status.VERIFICATION_FAILED,
                      e.getMessage() + "; nothing was committed"));
          return;
        } finally {
          if (!binHandedOver) {
            Scratch.deleteTree(binDir);
          }
        }
      }
    } finally {
      if (!handedOver) {
        // Failed before the commit was handed over: nothing references these files, so they are
        // cleanable once the lane has finished uploading. Once the lane has the commit the outcome
        // may be unknown, and they stay.
        overlap.awaitLaneQuietly();
        roles.commits().discard(snapshot, added);
      }
    }
  }

  /**
   * The lane's upload of one bin's verified outputs; on failure every file of the partition
   * uploaded so far is deleted (nothing references them) before the failure is passed on.
   */
  private void upload(
      TableSnapshot snapshot,
      List<BinRunner.Output> outputs,
      List<NewDataFile> uploadedSoFar,
      Path binDir,
      Roles roles)
      throws IOException {
    long t = System.nanoTime();
    try {
      for (BinRunner.Output output : outputs) {
        roles.runner().upload(snapshot.location(), output);
      }
    } catch (RuntimeException e) {
      roles.commits().discard(snapshot, uploadedSoFar);
      throw e;
    } finally {
      roles.stages().since(Stage.UPLOAD, t);
      Scratch.deleteTree(binDir);
    }
  }

  /**
   * The commit of a partition whose bins are all uploaded: not attempted when an earlier partition
   * found the run fenced, else {@link #commit}; abandoned (its files deleted) after an earlier
   * commit failed.
   */
  private BinOverlap.Commit partitionCommit(
      CompactionPlan plan,
      TableSnapshot snapshot,
      RewriteCommitManager.PartitionRewrite rewrite,
      Roles roles,
      Progress progress) {
    return new BinOverlap.Commit() {
      @Override
      public PartitionResult run() {
        String fenced = progress.fenced();
        if (fenced != null) {
          roles.commits().discard(snapshot, rewrite.added());
          return notAttempted(rewrite.partition(), fenced);
        }
        return commit(plan, snapshot, rewrite, roles);
      }

      @Override
      public void abandon() {
        roles.commits().discard(snapshot, rewrite.added());
      }
    };
  }

  /**
   * The commit lane's commit of a partition whose bins are all uploaded: only while the run still
   * holds the table's lease (else fenced, its files deleted), in the plan's order.
   */
  private PartitionResult commit(
      CompactionPlan plan,
      TableSnapshot snapshot,
      RewriteCommitManager.PartitionRewrite rewrite,
      Roles roles) {
    long committing = System.nanoTime();
    try {
      try {
        guard.assertHeld();
      } catch (CompactorException e) {
        // Fenced: another run holds the table now. Nothing references the uploads: cleanable.
        roles.commits().discard(snapshot, rewrite.added());
        return PartitionResult.notCommitted(
            rewrite.partition(),
            PartitionResult.Status.FENCED,
            e.getMessage() + " Nothing was committed.");
      }
      return roles.commits().commit(plan, snapshot, rewrite);
    } finally {
      roles.stages().since(Stage.COMMIT, committing);
    }
  }

  /**
   * The inputs as readers saw them: each local file with the partition values of its add action and
   * the row count of its deletion vector as logged.
   */
  private static List<RewriteVerifier.Measured> inputSide(Bin bin, List<Path> inputs) {
    List<RewriteVerifier.Measured> measured = new ArrayList<>();
    for (int i = 0; i < inputs.size(); i++) {
      DataFile file = bin.files().get(i);
      measured.add(
          new RewriteVerifier.Measured(inputs.get(i), file.partition(), file.deletedRows()));
    }
    return measured;
  }

  /** The rows the inputs' deletion vectors delete, loaded through the log's descriptors. */
  private DeletedRows deletedRows(TableSnapshot snapshot, Bin bin, List<Path> inputs) {
    Map<Path, long[]> byFile = new LinkedHashMap<>();
    for (int i = 0; i < inputs.size(); i++) {
      DataFile file = bin.files().get(i);
      if (file.hasDeletionVector()) {
        byFile.put(inputs.get(i), deletionVectors.deletedRows(snapshot.location(), file));
      }
    }
    return DeletedRows.of(byFile);
  }

  /**
   * The outputs as readers will see them: each written file with the partition values of its new
   * add.
   */
  private static List<RewriteVerifier.Measured> outputSide(List<BinRunner.Output> outputs) {
    return outputs.stream()
        .map(o -> new RewriteVerifier.Measured(o.written().path(), o.file().partition()))
        .toList();
  }
}
