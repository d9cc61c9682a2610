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
import company.data.compactor.model.DataFile;
import company.data.compactor.model.PartitionValues;
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
    List<PartitionResult> results = new ArrayList<>();
    long version = plan.readVersion();
    int done = 0;
    try (Scratch scratch = Scratch.create(scratchRoot);
        BinRewriter rewriter = rewriters.open(settings, scratch.dir());
        RewriteVerifier verifier =
            new RewriteVerifier(snapshot.schema(), settings, scratch.dir())) {
      Roles roles =
          new Roles(
              new BinRunner(storage, rewriter, settings, clock),
              verifier,
              new RewriteCommitManager(storage, committer),
              stages);
      for (PartitionValues partition : byPartition.keySet()) {
        roles.runner().refuseOutputOutsideRoot(snapshot.location(), partition);
      }
      String fenced = null;
      for (Map.Entry<PartitionValues, List<Bin>> entry : byPartition.entrySet()) {
        PartitionResult result =
            fenced != null
                ? PartitionResult.notCommitted(
                    entry.getKey(),
                    PartitionResult.Status.FENCED,
                    "not attempted: the run lost the table's lease before it (" + fenced + ")")
                : compactPartition(
                    plan, snapshot, entry.getKey(), entry.getValue(), scratch, roles);
        if (result.status() == PartitionResult.Status.FENCED && fenced == null) {
          fenced = result.detail();
        }
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
    return new CompactionResult(
        plan.readVersion(), version, results, clock.millis() - started, stages.timings());
  }

  /**
   * The three roles of one execution, each its own class: the runner reads and rewrites, the
   * verifier (its own database and queries) compares both sides, the commit manager commits and
   * decides what may be deleted.
   */
  private record Roles(
      BinRunner runner,
      RewriteVerifier verifier,
      RewriteCommitManager commits,
      StageClock stages) {}

  /**
   * Rewrites a partition's bins and commits them together. A bin that cannot be verified stops the
   * partition before its commit; whatever it had uploaded is deleted (nothing references it).
   */
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
    boolean handedOver = false;
    try {
      for (Bin bin : bins) {
        Path binDir = scratch.newDirectory("bin-" + java.util.UUID.randomUUID());
        try {
          long t = System.nanoTime();
          List<Path> inputs = roles.runner().fetch(bin, binDir.resolve("in"));
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
          List<String> differences =
              before.differences(roles.verifier().measure(outputSide(outputs)));
          roles.stages().since(Stage.VERIFY, t);
          if (!differences.isEmpty()) {
            return PartitionResult.notCommitted(
                partition,
                PartitionResult.Status.VERIFICATION_FAILED,
                "readers would see other data after the rewrite ("
                    + String.join(", ", differences)
                    + "); nothing was committed");
          }
          t = System.nanoTime();
          for (BinRunner.Output output : outputs) {
            roles.runner().upload(snapshot.location(), output);
            added.add(output.file());
          }
          roles.stages().since(Stage.UPLOAD, t);
          removed.addAll(bin.files());
          rows += before.rows();
        } catch (RewriteVerifier.Refused e) {
          return PartitionResult.notCommitted(
              partition,
              PartitionResult.Status.VERIFICATION_FAILED,
              e.getMessage() + "; nothing was committed");
        } finally {
          Scratch.deleteTree(binDir);
        }
      }
      long committing = System.nanoTime();
      try {
        guard.assertHeld();
      } catch (CompactorException e) {
        // Fenced: another run holds the table now. Nothing references the uploads: cleanable.
        return PartitionResult.notCommitted(
            partition, PartitionResult.Status.FENCED, e.getMessage() + " Nothing was committed.");
      }
      handedOver = true;
      try {
        return roles
            .commits()
            .commit(
                plan,
                snapshot,
                new RewriteCommitManager.PartitionRewrite(
                    partition, bins.size(), removed, added, rows));
      } finally {
        roles.stages().since(Stage.COMMIT, committing);
      }
    } finally {
      if (!handedOver) {
        // Failed before the commit was attempted: nothing references these files, so they are
        // cleanable. Once the commit manager has them the outcome may be unknown, and they stay.
        roles.commits().discard(snapshot, added);
      }
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
