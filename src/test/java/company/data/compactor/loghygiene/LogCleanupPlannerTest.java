package company.data.compactor.loghygiene;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.storage.StoredObject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Delta's expired-log rule with a fixed clock: now is 2026-11-30T12:00Z, so the default 30-day
 * retention gives 2026-10-31T12:00Z, truncated to the cutoff 2026-10-31T00:00Z.
 */
class LogCleanupPlannerTest {

  private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");
  private static final Instant CUTOFF = Instant.parse("2026-10-31T00:00:00Z");
  private static final String LOG = "file:/t/_delta_log";
  private static final LogCleanupPlanner PLANNER =
      new LogCleanupPlanner(Clock.fixed(NOW, ZoneOffset.UTC));
  private static final LogSettings DEFAULTS = LogSettings.of(Map.of());

  /** A log being built: files in the order they were written. */
  private static final class Log {
    final List<LogFile> files = new ArrayList<>();

    Log commit(long version, Instant at) {
      files.add(LogCleanupPlannerTest.file(String.format("%020d.crc", version), at));
      files.add(LogCleanupPlannerTest.file(String.format("%020d.json", version), at));
      return this;
    }

    Log commits(long from, long to, Instant first) {
      for (long v = from; v <= to; v++) {
        commit(v, first.plusSeconds(v - from));
      }
      return this;
    }

    Log checkpoint(long version, Instant at) {
      files.add(LogCleanupPlannerTest.file(String.format("%020d.checkpoint.parquet", version), at));
      return this;
    }

    Log file(String name, Instant at, long size) {
      files.add(LogFile.of(new StoredObject(LOG + "/" + name, size, at.toEpochMilli())).get());
      return this;
    }

    LogState state(long lastCheckpoint) {
      return new LogState(LOG, files, OptionalLong.of(lastCheckpoint));
    }

    LogState withoutLastCheckpoint() {
      return new LogState(LOG, files, OptionalLong.empty());
    }
  }

  private static LogFile file(String name, Instant at) {
    return LogFile.of(new StoredObject(LOG + "/" + name, 100, at.toEpochMilli())).get();
  }

  private static List<String> expired(LogCleanupPlan plan) {
    return plan.expired().stream().map(LogFile::name).toList();
  }

  private static List<String> names(String pattern, long from, long to) {
    List<String> names = new ArrayList<>();
    for (long v = from; v <= to; v++) {
      names.add(String.format(pattern, v));
    }
    return names;
  }

  /** Commits 0..9 (and their checksums) before a checkpoint at 10, in listing order. */
  private static List<String> firstTen() {
    List<String> names = new ArrayList<>();
    for (long v = 0; v <= 9; v++) {
      names.add(String.format("%020d.crc", v));
      names.add(String.format("%020d.json", v));
    }
    return names;
  }

  /**
   * Checkpoints at 10 and 20 (the last), commits 0..21; commit 19, the last file before the
   * checkpoint at 20, was written at {@code nineteen}, the others one second apart before it.
   */
  private static LogState twoCheckpoints(Instant nineteen) {
    Instant zero = nineteen.minusSeconds(19);
    Log log = new Log().commits(0, 9, zero);
    log.checkpoint(10, zero.plusSeconds(10)).commits(10, 19, zero.plusSeconds(10));
    log.checkpoint(20, nineteen.plusSeconds(1)).commits(20, 21, nineteen.plusSeconds(1));
    return log.state(20);
  }

  @Test
  void cutoff_isNowMinusTheRetention_truncatedToMidnightUtc() {
    assertThat(PLANNER.cutoff(Duration.ofDays(30))).isEqualTo(CUTOFF);
    assertThat(PLANNER.cutoff(Duration.ofHours(12)))
        .isEqualTo(Instant.parse("2026-11-30T00:00:00Z"));
    assertThat(PLANNER.plan(twoCheckpoints(CUTOFF), DEFAULTS, Set.of()).cutoff()).isEqualTo(CUTOFF);
  }

  /**
   * On S3, times are whole seconds: a checkpoint written in the same second as the commit before it
   * is still the boundary (the monotonic adjustment once made it part of the old segment, so
   * nothing was ever deleted).
   */
  @Test
  void aCheckpointInTheSameSecondAsTheCommitBeforeIt_isStillTheBoundary() {
    Instant nine = CUTOFF.minus(java.time.Duration.ofHours(1));
    Log log = new Log().commits(0, 9, nine.minusSeconds(9));
    log.checkpoint(10, nine).commits(10, 11, nine);

    LogCleanupPlan plan = PLANNER.plan(log.state(10), DEFAULTS, Set.of());

    assertThat(expired(plan)).containsExactlyElementsOf(firstTen());
    assertThat(plan.oldestVersionAfter()).isEqualTo(10);
    assertThat(plan.skippedReason()).isNull();
  }

  @Test
  void aSegmentWhoseLastFileIsExactlyAtTheCutoff_isDeletedWhole() {
    LogCleanupPlan plan = PLANNER.plan(twoCheckpoints(CUTOFF), DEFAULTS, Set.of());

    List<String> expected = new ArrayList<>(firstTen());
    expected.add("00000000000000000010.checkpoint.parquet");
    for (long v = 10; v <= 19; v++) {
      expected.add(String.format("%020d.crc", v));
      expected.add(String.format("%020d.json", v));
    }
    assertThat(expired(plan)).containsExactlyElementsOf(expected);
    assertThat(plan.oldestVersionBefore()).isZero();
    assertThat(plan.oldestVersionAfter()).isEqualTo(20);
    assertThat(plan.skippedReason()).isNull();
  }

  @Test
  void aSegmentWhoseLastFileIsOneSecondBeforeTheCutoff_isDeleted() {
    LogCleanupPlan plan = PLANNER.plan(twoCheckpoints(CUTOFF.minusSeconds(1)), DEFAULTS, Set.of());

    assertThat(plan.expired()).hasSize(41);
    assertThat(plan.oldestVersionAfter()).isEqualTo(20);
  }

  @Test
  void aSegmentWhoseLastFileIsOneSecondAfterTheCutoff_isKept_withTheCheckpointBeforeIt() {
    LogCleanupPlan plan = PLANNER.plan(twoCheckpoints(CUTOFF.plusSeconds(1)), DEFAULTS, Set.of());

    // Commits 0..9 expired long ago and the checkpoint at 10 follows them: they go. Commits
    // 10..19 do not, and they need the checkpoint at 10, so it stays.
    assertThat(expired(plan)).containsExactlyElementsOf(firstTen());
    assertThat(plan.oldestVersionAfter()).isEqualTo(10);
  }

  @Test
  void theNewestCheckpointAndItsCommit_areKept_evenWhenEverythingIsOlderThanTheCutoff() {
    Instant old = CUTOFF.minus(Duration.ofDays(40));
    Log log = new Log().commits(0, 9, old).checkpoint(10, old.plusSeconds(10));
    log.commit(10, old.plusSeconds(11));
    LogCleanupPlan plan = PLANNER.plan(log.state(10), DEFAULTS, Set.of());

    assertThat(expired(plan)).containsExactlyElementsOf(firstTen());
    assertThat(plan.oldestVersionAfter()).isEqualTo(10);
  }

  @Test
  void aCheckpointExactlyAtTheCutoff_isTheBoundary_olderFilesGo_itStays() {
    Instant old = CUTOFF.minus(Duration.ofDays(1));
    Log log = new Log().commits(0, 9, old).checkpoint(10, CUTOFF).commit(10, CUTOFF);
    log.commits(11, 12, CUTOFF.plusSeconds(1));
    LogCleanupPlan plan = PLANNER.plan(log.state(10), DEFAULTS, Set.of());

    assertThat(expired(plan)).containsExactlyElementsOf(firstTen());
    assertThat(plan.expired()).noneMatch(f -> f.version() >= 10);
  }

  @Test
  void withoutAnyCheckpoint_nothingIsDeleted_howeverOld() {
    Log log = new Log().commits(0, 30, CUTOFF.minus(Duration.ofDays(90)));
    LogCleanupPlan plan = PLANNER.plan(log.withoutLastCheckpoint(), DEFAULTS, Set.of());

    assertThat(plan.expired()).isEmpty();
    assertThat(plan.skippedReason()).contains("no _last_checkpoint");
    assertThat(plan.oldestVersionAfter()).isZero();
  }

  @Test
  void checkpointFilesWithoutLastCheckpoint_deleteNothing() {
    Instant old = CUTOFF.minus(Duration.ofDays(90));
    Log log = new Log().commits(0, 9, old).checkpoint(10, old.plusSeconds(10));
    log.commit(10, old.plusSeconds(11));

    assertThat(PLANNER.plan(log.withoutLastCheckpoint(), DEFAULTS, Set.of()).expired()).isEmpty();
  }

  @Test
  void enableExpiredLogCleanupFalse_deletesNothing_andSaysSo() {
    LogSettings off = LogSettings.of(Map.of("delta.enableExpiredLogCleanup", "FALSE"));
    LogCleanupPlan plan = PLANNER.plan(twoCheckpoints(CUTOFF.minusSeconds(1)), off, Set.of());

    assertThat(plan.expired()).isEmpty();
    assertThat(plan.skippedReason())
        .isEqualTo(
            "delta.enableExpiredLogCleanup is false: log cleanup is disabled for this table,"
                + " nothing was deleted");
  }

  @Test
  void unreadableProperties_failClosed() {
    LogCleanupPlan badFlag =
        PLANNER.plan(
            twoCheckpoints(CUTOFF.minusSeconds(1)),
            LogSettings.of(Map.of("delta.enableExpiredLogCleanup", "yes")),
            Set.of());
    LogCleanupPlan badRetention =
        PLANNER.plan(
            twoCheckpoints(CUTOFF.minusSeconds(1)),
            LogSettings.of(Map.of("delta.logRetentionDuration", "interval 1 month")),
            Set.of());

    assertThat(badFlag.expired()).isEmpty();
    assertThat(badFlag.skippedReason())
        .isEqualTo(
            "delta.enableExpiredLogCleanup = 'yes' is neither true nor false: log cleanup fails"
                + " closed and deleted nothing. Fix or unset the property.");
    assertThat(badRetention.expired()).isEmpty();
    assertThat(badRetention.cutoff()).isNull();
    assertThat(badRetention.skippedReason())
        .startsWith("delta.logRetentionDuration = 'interval 1 month' is not a Delta interval");
  }

  @Test
  void aTableRetention_movesTheCutoff() {
    LogSettings week = LogSettings.of(Map.of("delta.logRetentionDuration", "interval 7 days"));
    Instant weekCutoff = Instant.parse("2026-11-23T00:00:00Z");

    assertThat(PLANNER.plan(twoCheckpoints(weekCutoff), week, Set.of()).expired()).hasSize(41);
    assertThat(PLANNER.plan(twoCheckpoints(weekCutoff.plusSeconds(1)), week, Set.of()).expired())
        .hasSize(20);
  }

  @Test
  void nothingAtOrAfterTheCheckpointLastCheckpointNames_isDeleted() {
    // _last_checkpoint still names 10 though a checkpoint at 20 exists: 20 is not trusted yet.
    LogState state = twoCheckpoints(CUTOFF.minus(Duration.ofDays(5)));
    LogState stale = new LogState(LOG, state.files(), OptionalLong.of(10));

    assertThat(expired(PLANNER.plan(stale, DEFAULTS, Set.of())))
        .containsExactlyElementsOf(firstTen());
  }

  @Test
  void aLaterCommitNotNewerThanTheOneBefore_countsAsNewer_andKeepsItsSegment() {
    Instant old = CUTOFF.minus(Duration.ofDays(5));
    // Commit 9 carries an old time but follows commit 8, written after the cutoff: Delta counts it
    // 1 ms newer than commit 8, so the segment before the checkpoint at 10 has not expired.
    Log log = new Log().commits(0, 7, old).commit(8, CUTOFF.plus(Duration.ofHours(1)));
    log.files.add(file("00000000000000000009.json", old));
    log.checkpoint(10, CUTOFF.plus(Duration.ofHours(2)))
        .commit(10, CUTOFF.plus(Duration.ofHours(2)));

    assertThat(PLANNER.plan(log.state(10), DEFAULTS, Set.of()).expired()).isEmpty();
  }

  @Test
  void aSegmentHoldingAFileNewerThanTheCutoff_isKept_evenWhenItsLastFileIsOlder() {
    Instant old = CUTOFF.minus(Duration.ofDays(5));
    // Commit 8 was written after the cutoff, commit 9 (and its checksum) carry old times. Delta
    // would adjust only the checksum (the first file of version 9) and delete the segment because
    // its last file, commit 9, looks old; the compactor never deletes a log file newer than the
    // cutoff, so it keeps the segment.
    Log log = new Log().commits(0, 7, old).commit(8, CUTOFF.plus(Duration.ofHours(1)));
    log.commit(9, old).checkpoint(10, CUTOFF.plus(Duration.ofHours(2)));
    log.commit(10, CUTOFF.plus(Duration.ofHours(2)));

    assertThat(PLANNER.plan(log.state(10), DEFAULTS, Set.of()).expired()).isEmpty();
  }

  @Test
  void anIncompleteMultiPartCheckpoint_isNoBoundary_aCompleteOneIs() {
    Instant old = CUTOFF.minus(Duration.ofDays(5));
    Log log = new Log().commits(0, 9, old);
    log.file(
        "00000000000000000010.checkpoint.0000000001.0000000002.parquet", old.plusSeconds(10), 9);
    log.commits(10, 19, old.plusSeconds(11));
    log.file(
        "00000000000000000020.checkpoint.0000000001.0000000002.parquet", old.plusSeconds(40), 9);
    log.file(
        "00000000000000000020.checkpoint.0000000002.0000000002.parquet", old.plusSeconds(40), 9);
    log.commit(20, old.plusSeconds(41));
    LogCleanupPlan plan = PLANNER.plan(log.state(20), DEFAULTS, Set.of());

    // The half checkpoint at 10 splits nothing: 0..19 go together at the complete one at 20. The
    // lone part is never a candidate (Delta keeps incomplete checkpoints too).
    assertThat(plan.expired()).hasSize(40);
    assertThat(plan.expired()).noneMatch(f -> f.kind() == LogFileKind.CHECKPOINT);
    assertThat(plan.expired()).noneMatch(f -> f.version() >= 20);
    assertThat(plan.oldestVersionAfter()).isEqualTo(20);
  }

  @Test
  void aLogWithAGapAfterTheBoundary_isRefused() {
    Instant old = CUTOFF.minus(Duration.ofDays(5));
    Log log = new Log().commits(0, 9, old).checkpoint(10, old.plusSeconds(10));
    log.commit(10, old.plusSeconds(10)).commit(12, old.plusSeconds(12));
    LogCleanupPlan plan = PLANNER.plan(log.state(10), DEFAULTS, Set.of());

    assertThat(plan.expired()).isEmpty();
    assertThat(plan.skippedReason()).contains("version 10").contains("gaps");
  }

  @Test
  void checkpointProtection_isLeftAlone() {
    LogCleanupPlan plan =
        PLANNER.plan(
            twoCheckpoints(CUTOFF.minusSeconds(1)), DEFAULTS, Set.of("checkpointProtection"));

    assertThat(plan.expired()).isEmpty();
    assertThat(plan.skippedReason()).startsWith("the table uses checkpointProtection");
  }

  @Test
  void onlyCommitsCheckpointsAndChecksums_areLogFiles() {
    assertThat(LogFile.of(new StoredObject(LOG + "/_last_checkpoint", 10, 0))).isEmpty();
    assertThat(
            LogFile.of(
                new StoredObject(
                    LOG + "/00000000000000000001.00000000000000000009.compacted.json", 10, 0)))
        .isEmpty();
    assertThat(LogFile.of(new StoredObject(LOG + "/.00000000000000000001.json.tmp", 10, 0)))
        .isEmpty();
    assertThat(LogFile.of(new StoredObject(LOG + "/00000000000000000001.json.crc", 10, 0)))
        .isEmpty();
    assertThat(
            LogFile.of(
                new StoredObject(
                    LOG
                        + "/00000000000000000007.checkpoint.80a083e8-8d5d-4b7c-9a5b-63f8a1e0f0f1.json",
                    10,
                    0)))
        .hasValueSatisfying(f -> assertThat(f.kind()).isEqualTo(LogFileKind.CHECKPOINT));
    assertThat(
            LogFile.of(
                new StoredObject(
                    LOG + "/00000000000000000007.checkpoint.0000000002.0000000003.parquet", 10, 0)))
        .hasValueSatisfying(f -> assertThat(f.parts()).isEqualTo(3));
  }

  @Test
  void aDueCheckpoint_inADryRun_isPlannedAsIfWritten() {
    Log log = new Log().commits(0, 24, CUTOFF.minus(Duration.ofDays(5)));
    LogState state = log.withoutLastCheckpoint();
    CheckpointDecision decision = CheckpointDecision.of(state, DEFAULTS);

    LogCleanupPlan plan = PLANNER.plan(PLANNER.withCheckpointNow(state, 24), DEFAULTS, Set.of());

    assertThat(decision.due()).isTrue();
    assertThat(decision.commitsSinceCheckpoint()).isEqualTo(25);
    assertThat(plan.expired()).hasSize(48);
    assertThat(plan.oldestVersionAfter()).isEqualTo(24);
  }

  @Test
  void aCheckpointIsDue_afterIntervalCommitsSinceTheNewestOne() {
    Instant t = CUTOFF;
    LogState nine = new Log().commits(0, 8, t).withoutLastCheckpoint();
    LogState ten = new Log().commits(0, 9, t).withoutLastCheckpoint();
    LogState sinceTen = new Log().commits(0, 9, t).checkpoint(10, t).commits(10, 19, t).state(10);
    LogState sinceTenMore =
        new Log().commits(0, 9, t).checkpoint(10, t).commits(10, 20, t).state(10);

    assertThat(CheckpointDecision.of(nine, DEFAULTS).due()).isFalse();
    assertThat(CheckpointDecision.of(ten, DEFAULTS).due()).isTrue();
    assertThat(CheckpointDecision.of(sinceTen, DEFAULTS).commitsSinceCheckpoint()).isEqualTo(9);
    assertThat(CheckpointDecision.of(sinceTen, DEFAULTS).due()).isFalse();
    assertThat(CheckpointDecision.of(sinceTenMore, DEFAULTS).due()).isTrue();
    assertThat(
            CheckpointDecision.of(ten, LogSettings.of(Map.of("delta.checkpointInterval", "100")))
                .due())
        .isFalse();
    LogSettings broken = LogSettings.of(Map.of("delta.checkpointInterval", "0"));
    assertThat(CheckpointDecision.of(sinceTenMore, broken).due()).isFalse();
    assertThat(broken.problems())
        .containsExactly("delta.checkpointInterval = '0' is not a whole number above 0");
  }
}
