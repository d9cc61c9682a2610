package company.data.compactor.compact.exec;

import company.data.compactor.compact.CompactionPlan;
import company.data.compactor.compact.PartitionResult;
import company.data.compactor.delta.CommitOutcome;
import company.data.compactor.delta.NewDataFile;
import company.data.compactor.delta.RewriteCommit;
import company.data.compactor.delta.RewriteCommitter;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.PartitionValues;
import company.data.compactor.model.RetryPolicy;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.Storage;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The commit manager role of a compaction, as Iceberg's {@code RewriteDataFilesCommitManager}
 * splits it off: one commit of a partition's removes and adds, and the rules for the files it
 * uploaded. Files are <em>cleanable</em> only when nothing can reference them: before the commit
 * was attempted ({@link #discard}), or after the committer proved the commit absent ({@link
 * CommitOutcome.Conflicted}). When the outcome cannot be proven the committer throws and every file
 * stays (an untracked file vacuum removes later, if the commit did not land).
 *
 * <p>A commit {@link CommitOutcome.Outpaced outpaced} by other writers (they kept taking the next
 * version while it rebased; no semantic conflict) is tried again from the same read version after a
 * jittered backoff, at most {@link #CONTENTION}'s attempts; then the partition ends {@code
 * conflicted} and the run goes on with the others.
 */
final class RewriteCommitManager {

  private static final System.Logger LOG = System.getLogger(RewriteCommitManager.class.getName());

  /**
   * A partition's verified, uploaded rewrite, ready for one commit.
   *
   * @param partition the partition
   * @param bins how many bins it was rewritten in
   * @param removed the inputs
   * @param added the uploaded outputs
   * @param rows rows rewritten (verified equal on both sides)
   */
  record PartitionRewrite(
      PartitionValues partition,
      int bins,
      List<DataFile> removed,
      List<NewDataFile> added,
      long rows) {
    PartitionRewrite {
      removed = List.copyOf(removed);
      added = List.copyOf(added);
    }

    long bytesRemoved() {
      return removed.stream().mapToLong(DataFile::sizeBytes).sum();
    }

    long bytesAdded() {
      return added.stream().mapToLong(NewDataFile::sizeBytes).sum();
    }
  }

  /** Commit attempts of a partition under contention: 5, backoff up to 0.5 s, 1 s, 2 s, 4 s. */
  static final RetryPolicy CONTENTION =
      new RetryPolicy(
          5,
          Duration.ofMillis(500),
          Duration.ofSeconds(8),
          Duration.ofMinutes(5),
          Duration.ofMinutes(10));

  private final Storage storage;
  private final RewriteCommitter committer;
  private final RetryPolicy contention;

  RewriteCommitManager(Storage storage, RewriteCommitter committer) {
    this(storage, committer, CONTENTION);
  }

  RewriteCommitManager(Storage storage, RewriteCommitter committer, RetryPolicy contention) {
    this.storage = storage;
    this.committer = committer;
    this.contention = contention;
  }

  /**
   * Commits {@code rewrite} on top of the plan's read version: {@code remove} + {@code add} with
   * {@code dataChange=false}, an OPTIMIZE commit info with the plan's parameters and the
   * partition's metrics.
   *
   * @return COMMITTED, or CONFLICTED (the log proved the commit absent; the new files were deleted)
   * @throws company.data.compactor.error.CompactorException when the outcome is unknown; the new
   *     files are kept
   */
  PartitionResult commit(CompactionPlan plan, TableSnapshot snapshot, PartitionRewrite rewrite) {
    RewriteCommit commit =
        new RewriteCommit(
            snapshot.location(),
            plan.readVersion(),
            rewrite.removed(),
            rewrite.added(),
            "OPTIMIZE",
            CommitParameters.operationParameters(plan),
            Map.of(
                "numRemovedFiles", String.valueOf(rewrite.removed().size()),
                "numAddedFiles", String.valueOf(rewrite.added().size()),
                "numRemovedBytes", String.valueOf(rewrite.bytesRemoved()),
                "numAddedBytes", String.valueOf(rewrite.bytesAdded()),
                "numBins", String.valueOf(rewrite.bins()),
                "numOutputRows", String.valueOf(rewrite.rows()),
                "partition", rewrite.partition().label()));
    CommitOutcome outcome = committer.commitRewrite(commit);
    for (int attempt = 1; outcome instanceof CommitOutcome.Outpaced outpaced; attempt++) {
      if (!contention.allowsAnotherAfter(attempt)) {
        LOG.log(
            Level.WARNING,
            "compaction outpaced: table={0} partition={1} attempts={2}: {3}",
            snapshot.location(),
            rewrite.partition().label(),
            attempt,
            outpaced.reason());
        discard(snapshot, rewrite.added());
        return PartitionResult.notCommitted(
            rewrite.partition(),
            PartitionResult.Status.CONFLICTED,
            "other writers committed first on every one of "
                + attempt
                + " attempts ("
                + outpaced.reason()
                + "); the new files were deleted, the table is as the other writers left it; the next run tries again");
      }
      Duration wait = contention.backoff(attempt, ThreadLocalRandom.current()::nextDouble);
      LOG.log(
          Level.INFO,
          "commit outpaced by other writers: table={0} partition={1} attempt={2}, retrying in {3} ms",
          snapshot.location(),
          rewrite.partition().label(),
          attempt,
          wait.toMillis());
      pause(wait);
      outcome = committer.commitRewrite(commit);
    }
    if (outcome instanceof CommitOutcome.Conflicted conflicted) {
      LOG.log(
          Level.WARNING,
          "compaction conflict: table={0} partition={1}: {2}",
          snapshot.location(),
          rewrite.partition().label(),
          conflicted.reason());
      discard(snapshot, rewrite.added());
      return PartitionResult.notCommitted(
          rewrite.partition(),
          PartitionResult.Status.CONFLICTED,
          "a concurrent commit conflicts ("
              + conflicted.reason()
              + "); the new files were deleted,"
              + " the table is as the other writer left it");
    }
    CommitOutcome.Committed committed = (CommitOutcome.Committed) outcome;
    return new PartitionResult(
        rewrite.partition(),
        PartitionResult.Status.COMMITTED,
        committed.version(),
        rewrite.removed().size(),
        rewrite.added().size(),
        rewrite.bytesRemoved(),
        rewrite.bytesAdded(),
        rewrite.rows(),
        null,
        committed.hookFailures());
  }

  private static void pause(Duration wait) {
    try {
      Thread.sleep(wait.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting to retry a commit", e);
    }
  }

  /**
   * Deletes uploaded files nothing references (the commit was never attempted, or the log proved it
   * absent); a failure only leaves untracked files that vacuum removes later.
   */
  void discard(TableSnapshot snapshot, List<NewDataFile> added) {
    if (added.isEmpty()) {
      return;
    }
    try {
      storage.deleteAll(added.stream().map(NewDataFile::path).toList());
    } catch (IOException e) {
      LOG.log(
          Level.WARNING,
          "could not delete {0} uploaded files of {1}; vacuum will remove them: {2}",
          added.size(),
          snapshot.location(),
          e.getMessage());
    }
  }
}
