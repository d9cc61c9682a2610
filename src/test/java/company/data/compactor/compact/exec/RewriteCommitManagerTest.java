package company.data.compactor.compact.exec;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.compact.CompactionOptions;
import company.data.compactor.compact.CompactionPlan;
import company.data.compactor.compact.Layout;
import company.data.compactor.compact.PartitionFilter;
import company.data.compactor.compact.PartitionResult;
import company.data.compactor.delta.CommitOutcome;
import company.data.compactor.delta.NewDataFile;
import company.data.compactor.model.PartitionValues;
import company.data.compactor.model.RetryPolicy;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.testing.Snapshots;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the commit manager does with each outcome, and with other writers that keep winning. */
class RewriteCommitManagerTest {

  private static final RetryPolicy NO_WAIT =
      new RetryPolicy(
          3, Duration.ZERO, Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(1));

  @TempDir Path dir;

  private PartitionResult commit(Deque<CommitOutcome> outcomes, Path newFile) {
    CompactionOptions options =
        new CompactionOptions(
            1 << 20,
            40,
            128 << 20,
            1L << 30,
            PartitionFilter.all(),
            OptionalLong.empty(),
            Layout.BIN_PACK,
            List.of());
    CompactionPlan plan = new CompactionPlan(5, options, true, List.of(), List.of(), List.of(), 0);
    NewDataFile added =
        new NewDataFile(
            LocalStorage.toStoragePath(newFile),
            "part-1.parquet",
            10,
            PartitionValues.none(),
            "{}",
            1,
            Map.of());
    var rewrite =
        new RewriteCommitManager.PartitionRewrite(
            PartitionValues.none(),
            1,
            List.of(Snapshots.unpartitionedFile(5, OptionalLong.of(1))),
            List.of(added),
            1);
    return new RewriteCommitManager(new LocalStorage(), commit -> outcomes.removeFirst(), NO_WAIT)
        .commit(plan, Snapshots.unpartitioned(5, List.of()), rewrite);
  }

  @Test
  void outpacedTwice_thenCommitted_isCommitted_andTheNewFileStays() throws Exception {
    Path file = Files.writeString(dir.resolve("part-1.parquet"), "x");
    Deque<CommitOutcome> outcomes =
        new ArrayDeque<>(
            List.of(
                new CommitOutcome.Outpaced("lost the race"),
                new CommitOutcome.Outpaced("lost the race"),
                new CommitOutcome.Committed(9, List.of())));

    PartitionResult result = commit(outcomes, file);

    assertThat(result.status()).isEqualTo(PartitionResult.Status.COMMITTED);
    assertThat(result.committedVersion()).isEqualTo(9);
    assertThat(outcomes).isEmpty();
    assertThat(file).exists();
  }

  @Test
  void outpacedOnEveryAttempt_endsConflicted_afterTheBoundedAttempts_andDeletesTheNewFile()
      throws Exception {
    Path file = Files.writeString(dir.resolve("part-1.parquet"), "x");
    Deque<CommitOutcome> outcomes =
        new ArrayDeque<>(
            List.of(
                new CommitOutcome.Outpaced("lost"),
                new CommitOutcome.Outpaced("lost"),
                new CommitOutcome.Outpaced("lost"),
                new CommitOutcome.Committed(9, List.of())));

    PartitionResult result = commit(outcomes, file);

    assertThat(result.status()).isEqualTo(PartitionResult.Status.CONFLICTED);
    assertThat(result.detail())
        .startsWith("other writers committed first on every one of 3 attempts (lost)");
    assertThat(outcomes).hasSize(1);
    assertThat(file).doesNotExist();
  }

  @Test
  void aRealConflict_isNotRetried_andDeletesTheNewFile() throws Exception {
    Path file = Files.writeString(dir.resolve("part-1.parquet"), "x");
    Deque<CommitOutcome> outcomes =
        new ArrayDeque<>(
            List.of(
                new CommitOutcome.Conflicted("an input was removed"),
                new CommitOutcome.Committed(9, List.of())));

    PartitionResult result = commit(outcomes, file);

    assertThat(result.status()).isEqualTo(PartitionResult.Status.CONFLICTED);
    assertThat(result.detail()).startsWith("a concurrent commit conflicts (an input was removed)");
    assertThat(outcomes).hasSize(1);
    assertThat(file).doesNotExist();
  }
}
