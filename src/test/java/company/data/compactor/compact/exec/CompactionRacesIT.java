package company.data.compactor.compact.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.tuple;

import company.data.compactor.compact.CompactionOptions;
import company.data.compactor.compact.CompactionPlan;
import company.data.compactor.compact.CompactionPlanner;
import company.data.compactor.compact.CompactionResult;
import company.data.compactor.compact.Layout;
import company.data.compactor.compact.PartitionFilter;
import company.data.compactor.compact.PartitionResult;
import company.data.compactor.delta.CommitOutcome;
import company.data.compactor.delta.RewriteCommit;
import company.data.compactor.delta.kernel.KernelDeltaTables;
import company.data.compactor.delta.kernel.KernelRewriteCommitter;
import company.data.compactor.delta.kernel.KernelTableWriter;
import company.data.compactor.demo.DemoSeeder;
import company.data.compactor.demo.DemoTable;
import company.data.compactor.error.CompactorException;
import company.data.compactor.model.ByteSizes;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.RetryPolicy;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.storage.Storage;
import company.data.compactor.testing.DuckDb;
import company.data.compactor.testing.ForwardingStorage;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compaction racing other writers. Each test plans at version 30, lets another writer commit, then
 * executes the stale plan, and asserts the exact rows afterwards.
 */
class CompactionRacesIT {

  private static final List<String> DATA_COLUMNS =
      List.of("event_id", "customer_id", "event_type", "amount");
  private static final String FIRST_DAY = "event_date=2026-10-17";

  @TempDir Path dir;

  private final LocalStorage storage = new LocalStorage();
  private final KernelDeltaTables tables = new KernelDeltaTables(storage);
  private final KernelTableWriter writer = new KernelTableWriter(storage);
  private TableLocation location;
  private TableSnapshot seeded;

  @BeforeEach
  void seed() {
    location = TableLocation.parse("demo", dir);
    new DemoSeeder(storage, tables, writer).seed(location);
    seeded = tables.loadLatest(location);
  }

  private static CompactionOptions options() {
    return new CompactionOptions(
        ByteSizes.mbToBytes(128),
        40.0,
        ByteSizes.mbToBytes(128),
        1L << 30,
        PartitionFilter.all(),
        OptionalLong.empty(),
        Layout.BIN_PACK,
        List.of());
  }

  private CompactionExecutor executor(Storage through) {
    return new CompactionExecutor(
        through,
        new KernelRewriteCommitter(through, Clock.systemUTC()),
        RewriteSettings.defaults(),
        dir.resolve("scratch"),
        Clock.systemUTC());
  }

  private List<Path> parquetFilesIn(String partition) throws IOException {
    try (Stream<Path> files = Files.list(dir.resolve("demo").resolve(partition))) {
      return files.filter(p -> p.toString().endsWith(".parquet")).toList();
    }
  }

  @Test
  void concurrentAppendToTheSamePartition_bothSurvive() throws Exception {
    CompactionPlan plan = CompactionPlanner.plan(seeded, options());
    writer.append(location, DemoTable.partitionOf(0), DemoTable.rowsOf(30));

    CompactionResult result = executor(storage).execute(plan, seeded);
    TableSnapshot after = tables.loadLatest(location);

    assertThat(result.partitions())
        .extracting(PartitionResult::status)
        .containsOnly(PartitionResult.Status.COMMITTED);
    assertThat(after.version()).isEqualTo(34);
    assertThat(after.activeFiles()).hasSize(4);
    assertThat(DuckDb.countAndSum(after.activeFiles(), "amount").rows()).isEqualTo(1550);
    String expected =
        DuckDb.checksum(
            Stream.concat(
                    seeded.activeFiles().stream(),
                    tables.loadLatest(location).activeFiles().stream()
                        .filter(f -> f.numRecords().getAsLong() == 50))
                .toList(),
            DATA_COLUMNS);
    assertThat(DuckDb.checksum(after.activeFiles(), DATA_COLUMNS))
        .isEqualTo(expected)
        .startsWith("1550:");
  }

  @Test
  void concurrentDeleteOfOneInput_abortsThatPartition_noRowLostOrDuplicated() throws Exception {
    CompactionPlan plan = CompactionPlanner.plan(seeded, options());
    DataFile victim =
        seeded.activeFiles().stream()
            .filter(f -> f.partition().label().equals(FIRST_DAY))
            .findFirst()
            .orElseThrow();
    CommitOutcome delete =
        new KernelRewriteCommitter(storage, Clock.systemUTC())
            .commitRewrite(
                new RewriteCommit(
                    location, 30, List.of(victim), List.of(), "DELETE", Map.of(), Map.of()));
    assertThat(delete).isInstanceOf(CommitOutcome.Committed.class);
    List<DataFile> survivors =
        seeded.activeFiles().stream().filter(f -> !f.equals(victim)).toList();
    String expected = DuckDb.checksum(survivors, DATA_COLUMNS);

    CompactionResult result = executor(storage).execute(plan, seeded);
    TableSnapshot after = tables.loadLatest(location);

    assertThat(result.partitions())
        .filteredOn(p -> p.partition().label().equals(FIRST_DAY))
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.status()).isEqualTo(PartitionResult.Status.CONFLICTED);
              assertThat(p.detail()).contains("the new files were deleted");
            });
    assertThat(result.filesRemoved()).isEqualTo(20);
    assertThat(DuckDb.checksum(after.activeFiles(), DATA_COLUMNS))
        .isEqualTo(expected)
        .startsWith("1450:");
    assertThat(after.activeFiles())
        .filteredOn(f -> f.partition().label().equals(FIRST_DAY))
        .hasSize(9);
    assertThat(parquetFilesIn(FIRST_DAY))
        .as("our rewritten file was deleted, the originals stay")
        .hasSize(10);
  }

  @Test
  void secondCompactionOfTheSameFiles_conflicts_andTheTableHoldsEachRowOnce() throws Exception {
    CompactionPlan first = CompactionPlanner.plan(seeded, options());
    CompactionPlan second = CompactionPlanner.plan(seeded, options());
    String expected = DuckDb.checksum(seeded.activeFiles(), DATA_COLUMNS);

    executor(storage).execute(first, seeded);
    CompactionResult late = executor(storage).execute(second, seeded);
    TableSnapshot after = tables.loadLatest(location);

    assertThat(late.partitions())
        .extracting(PartitionResult::status)
        .containsOnly(PartitionResult.Status.CONFLICTED);
    assertThat(late.compacted()).isFalse();
    assertThat(after.version()).isEqualTo(33);
    assertThat(after.activeFiles()).hasSize(3);
    assertThat(DuckDb.checksum(after.activeFiles(), DATA_COLUMNS))
        .isEqualTo(expected)
        .startsWith("1500:");
    for (String partition :
        List.of("event_date=2026-10-17", "event_date=2026-10-18", "event_date=2026-10-19")) {
      assertThat(parquetFilesIn(partition))
          .as("10 originals + 1 output, the loser's output deleted")
          .hasSize(11);
    }
  }

  @Test
  void crashBetweenUploadAndCommit_leavesTheTableReadableAndUnchanged() throws Exception {
    String expected = DuckDb.checksum(seeded.activeFiles(), DATA_COLUMNS);
    Storage crashing = new CrashOnCommit(storage);

    CompactorException e =
        catchThrowableOfType(
            CompactorException.class,
            () -> executor(crashing).execute(CompactionPlanner.plan(seeded, options()), seeded));
    TableSnapshot after = tables.loadLatest(location);

    assertThat(e.kind()).isEqualTo(CompactorException.Kind.OPERATION_FAILED);
    assertThat(e.getMessage())
        .startsWith(
            "The OPTIMIZE commit of "
                + location.uri()
                + " was not written: every attempt to write ")
        .contains(
            "(5 attempts; last: injected crash before the commit file was written). The log up to version 30"
                + " holds no commit of this run, so the table is unchanged. Its 1 new file(s) [")
        .endsWith(
            "were kept in case a write still lands; if nothing references them they are orphans that a"
                + " full-mode vacuum (--vacuum-mode full) deletes once they are older than the retention period.");
    assertThat(after.version()).isEqualTo(30);
    assertThat(after.activeFiles()).containsExactlyInAnyOrderElementsOf(seeded.activeFiles());
    assertThat(DuckDb.checksum(after.activeFiles(), DATA_COLUMNS)).isEqualTo(expected);
    assertThat(parquetFilesIn(FIRST_DAY)).as("the upload stays, untracked, for vacuum").hasSize(11);
    try (Stream<Path> scratch = Files.list(dir.resolve("scratch"))) {
      assertThat(scratch).as("the run's scratch directory is deleted after the failure").isEmpty();
    }
  }

  @Test
  void aLandedCommitUnseenUntilKernelGaveUp_isCommitted_andItsFilesKept() throws Exception {
    String expected = DuckDb.checksum(seeded.activeFiles(), DATA_COLUMNS);
    String first = "_delta_log/00000000000000000031.json";
    LaggingCommit lagging = new LaggingCommit(storage, first, KERNEL_ATTEMPTS);
    RetryPolicy patient =
        new RetryPolicy(
            20,
            Duration.ofMillis(1),
            Duration.ofMillis(1),
            Duration.ofSeconds(5),
            Duration.ofMinutes(1));
    CompactionExecutor executor =
        new CompactionExecutor(
            lagging,
            new KernelRewriteCommitter(lagging, Clock.systemUTC(), patient),
            RewriteSettings.defaults(),
            dir.resolve("scratch"),
            Clock.systemUTC());

    CompactionResult result = executor.execute(CompactionPlanner.plan(seeded, options()), seeded);
    TableSnapshot after = tables.loadLatest(location);

    assertThat(lagging.hiddenReads())
        .as("kernel tried every attempt it has and gave up before the commit could be seen")
        .isEqualTo(KERNEL_ATTEMPTS);
    assertThat(result.partitions())
        .extracting(PartitionResult::status, PartitionResult::committedVersion)
        .containsExactly(
            tuple(PartitionResult.Status.COMMITTED, 31L),
            tuple(PartitionResult.Status.COMMITTED, 32L),
            tuple(PartitionResult.Status.COMMITTED, 33L));
    assertThat(after.version()).isEqualTo(33);
    assertThat(after.activeFiles()).hasSize(3);
    assertThat(DuckDb.checksum(after.activeFiles(), DATA_COLUMNS))
        .isEqualTo(expected)
        .startsWith("1500:");
    assertThat(parquetFilesIn(FIRST_DAY)).as("10 originals + the committed output").hasSize(11);
  }

  /** Kernel's attempts at one version: the first and {@code MAX_REBASES} retries. */
  private static final int KERNEL_ATTEMPTS = 11;

  /**
   * Storage that stores one commit file but loses the answer, and then does not show it to reads
   * for a while (a store whose reads lag its writes): every attempt finds nothing, until kernel has
   * used up its retries.
   */
  private static final class LaggingCommit extends ForwardingStorage {
    private final String commit;
    private final int hiddenFor;
    private final AtomicInteger hidden = new AtomicInteger();

    LaggingCommit(Storage delegate, String commit, int hiddenFor) {
      super(delegate);
      this.commit = commit;
      this.hiddenFor = hiddenFor;
    }

    int hiddenReads() {
      return hidden.get();
    }

    @Override
    public boolean putIfAbsent(String path, byte[] content) throws IOException {
      boolean stored = super.putIfAbsent(path, content);
      if (path.endsWith(commit)) {
        throw new IOException("injected: the response to the commit write was lost");
      }
      return stored;
    }

    @Override
    public InputStream openFrom(String path, long offset) throws IOException {
      if (path.endsWith(commit) && hidden.get() < hiddenFor) {
        hidden.incrementAndGet();
        throw new FileNotFoundException("injected: not visible yet: " + path);
      }
      return super.openFrom(path, offset);
    }
  }

  /** Storage whose log commits fail, as if the process died between upload and commit. */
  private static final class CrashOnCommit extends ForwardingStorage {
    CrashOnCommit(Storage delegate) {
      super(delegate);
    }

    @Override
    public boolean putIfAbsent(String path, byte[] content) throws IOException {
      if (path.contains("/_delta_log/")) {
        throw new IOException("injected crash before the commit file was written");
      }
      return super.putIfAbsent(path, content);
    }
  }
}
