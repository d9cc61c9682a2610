package company.data.compactor.loghygiene;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.delta.kernel.KernelDeltaTables;
import company.data.compactor.delta.kernel.KernelTableCheckpointer;
import company.data.compactor.delta.kernel.KernelTableWriter;
import company.data.compactor.delta.kernel.KernelVersions;
import company.data.compactor.demo.DemoSeeder;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.Storage;
import company.data.compactor.storage.StoredObject;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Log hygiene on a seeded demo table (versions 0..30, no checkpoint), with the clock forty days
 * ahead so every log file is older than the 30-day retention: the checkpoint at 30 is due, and
 * commits 0..29 expire once it exists. Run against local and S3 storage.
 */
abstract class LogCleanupContract {

  private final Clock fortyDaysLater = Clock.offset(Clock.systemUTC(), Duration.ofDays(40));

  /** The storage the table lives on. */
  abstract Storage storage();

  /** A fresh, empty table location on {@link #storage()}. */
  abstract TableLocation newTable() throws Exception;

  private boolean readable(TableLocation table, long version) {
    return KernelVersions.readable(storage(), table.uri(), version);
  }

  private TableLocation seeded() throws Exception {
    TableLocation table = newTable();
    KernelDeltaTables tables = new KernelDeltaTables(storage());
    new DemoSeeder(storage(), tables, new KernelTableWriter(storage())).seed(table);
    return table;
  }

  private LogCleanupResult clean(TableLocation table, LogCleanupMode mode) {
    TableSnapshot snapshot = new KernelDeltaTables(storage()).loadLatest(table);
    return new LogCleanupExecutor(
            storage(),
            new KernelTableCheckpointer(storage()),
            new LogCleanupPlanner(fortyDaysLater))
        .clean(snapshot, mode);
  }

  private List<String> log(TableLocation table) throws Exception {
    return storage().listFrom(table.child("_delta_log/0")).stream()
        .map(StoredObject::name)
        .toList();
  }

  private static List<String> commits(long from, long to) {
    return java.util.stream.LongStream.rangeClosed(from, to)
        .mapToObj(v -> String.format("%020d.json", v))
        .toList();
  }

  @Test
  void apply_writesTheDueCheckpoint_deletesEveryCommitBeforeIt_andTheTableStillReads()
      throws Exception {
    TableLocation table = seeded();

    LogCleanupResult result = clean(table, LogCleanupMode.APPLY);

    assertThat(result.checkpointStatus()).isEqualTo(CheckpointStatus.WRITTEN);
    assertThat(result.checkpoint().latestVersion()).isEqualTo(30);
    assertThat(result.plan().expired().stream().map(LogFile::name).toList())
        .containsExactlyElementsOf(commits(0, 29));
    assertThat(result.deletedFiles()).isEqualTo(30);
    assertThat(result.plan().oldestVersionAfter()).isEqualTo(30);
    assertThat(log(table))
        .containsExactly(
            "00000000000000000030.checkpoint.parquet",
            "00000000000000000030.json",
            "_last_checkpoint");
    TableSnapshot after = new KernelDeltaTables(storage()).loadLatest(table);
    assertThat(after.version()).isEqualTo(30);
    assertThat(after.activeFiles()).hasSize(30);
    assertThat(readable(table, 30)).isTrue();
    assertThat(readable(table, 29)).isFalse();
  }

  @Test
  void dryRun_writesAndDeletesNothing_butPlansWhatApplyingWould() throws Exception {
    TableLocation table = seeded();
    List<String> before = log(table);

    LogCleanupResult result = clean(table, LogCleanupMode.DRY_RUN);

    assertThat(result.checkpointStatus()).isEqualTo(CheckpointStatus.WOULD_WRITE);
    assertThat(result.plan().expired().stream().map(LogFile::name).toList())
        .containsExactlyElementsOf(commits(0, 29));
    assertThat(result.deletedFiles()).isZero();
    assertThat(log(table)).isEqualTo(before).containsExactlyElementsOf(commits(0, 30));
    assertThat(readable(table, 0)).isTrue();
  }

  @Test
  void cleanupDisabled_stillCheckpoints_butDeletesNothing() throws Exception {
    TableLocation table = seeded();
    TableSnapshot seeded = new KernelDeltaTables(storage()).loadLatest(table);
    java.util.Map<String, String> off = new java.util.HashMap<>(seeded.properties());
    off.put("delta.enableExpiredLogCleanup", "false");
    TableSnapshot disabled =
        new TableSnapshot(
            seeded.location(),
            seeded.version(),
            seeded.schema(),
            seeded.activeFiles(),
            off,
            seeded.features());

    LogCleanupResult result =
        new LogCleanupExecutor(
                storage(),
                new KernelTableCheckpointer(storage()),
                new LogCleanupPlanner(fortyDaysLater))
            .clean(disabled, LogCleanupMode.APPLY);

    assertThat(result.checkpointStatus()).isEqualTo(CheckpointStatus.WRITTEN);
    assertThat(result.deletedFiles()).isZero();
    assertThat(result.plan().skippedReason()).startsWith("delta.enableExpiredLogCleanup is false");
    assertThat(log(table)).containsAll(commits(0, 30));
    assertThat(readable(table, 0)).isTrue();
  }

  @Test
  void aSecondRun_findsNothingMore() throws Exception {
    TableLocation table = seeded();
    clean(table, LogCleanupMode.APPLY);

    LogCleanupResult again = clean(table, LogCleanupMode.APPLY);

    assertThat(again.checkpointStatus()).isEqualTo(CheckpointStatus.NOT_DUE);
    assertThat(again.plan().expired()).isEmpty();
    assertThat(again.plan().oldestVersionBefore()).isEqualTo(30);
    assertThat(readable(table, 30)).isTrue();
  }
}
