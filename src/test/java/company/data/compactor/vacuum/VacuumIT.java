package company.data.compactor.vacuum;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.compact.CompactionOptions;
import company.data.compactor.compact.CompactionPlanner;
import company.data.compactor.compact.Layout;
import company.data.compactor.compact.PartitionFilter;
import company.data.compactor.compact.exec.CompactionExecutor;
import company.data.compactor.compact.exec.RewriteSettings;
import company.data.compactor.delta.kernel.KernelDeletionVectorLoader;
import company.data.compactor.delta.kernel.KernelDeltaTables;
import company.data.compactor.delta.kernel.KernelLogReader;
import company.data.compactor.delta.kernel.KernelRewriteCommitter;
import company.data.compactor.delta.kernel.KernelTableWriter;
import company.data.compactor.demo.DemoSeeder;
import company.data.compactor.model.ByteSizes;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.storage.Storage;
import company.data.compactor.testing.DuckDb;
import company.data.compactor.testing.ForwardingStorage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Vacuum of a compacted demo table on local disk, with the clock moved eight days ahead. */
class VacuumIT {

  @TempDir Path dir;
  private final LocalStorage storage = new LocalStorage();
  private final KernelDeltaTables tables = new KernelDeltaTables(storage);
  private final Clock eightDaysLater = Clock.offset(Clock.systemUTC(), Duration.ofDays(8));
  private TableLocation location;

  @BeforeEach
  void compactedDemo() {
    location = TableLocation.parse("demo", dir);
    new DemoSeeder(storage, tables, new KernelTableWriter(storage)).seed(location);
    TableSnapshot seeded = tables.loadLatest(location);
    new CompactionExecutor(
            storage,
            new KernelRewriteCommitter(storage, Clock.systemUTC()),
            new KernelDeletionVectorLoader(storage),
            RewriteSettings.defaults(),
            dir.resolve("scratch"),
            Clock.systemUTC())
        .execute(
            CompactionPlanner.plan(
                seeded,
                new CompactionOptions(
                    ByteSizes.mbToBytes(128),
                    40,
                    ByteSizes.mbToBytes(128),
                    1L << 30,
                    PartitionFilter.all(),
                    OptionalLong.empty(),
                    Layout.BIN_PACK,
                    List.of())),
            seeded);
  }

  private VacuumExecutor executor(Storage through, Clock clock) {
    return new VacuumExecutor(
        through,
        new KernelLogReader(through),
        new KernelRewriteCommitter(through, clock),
        new VacuumPlanner(clock));
  }

  /** Changes the table's files. */
  private interface TableChange {
    void apply() throws IOException;
  }

  /**
   * The local storage, with {@code change} applied once, right after the {@code VACUUM START}
   * commit lands (between the plan and the deletes).
   */
  private Storage onceVacuumStartLands(TableChange change) {
    return new ForwardingStorage(storage) {
      private boolean applied;

      @Override
      public boolean putIfAbsent(String path, byte[] content) throws IOException {
        boolean written = super.putIfAbsent(path, content);
        if (!applied
            && new String(content, java.nio.charset.StandardCharsets.UTF_8)
                .contains("VACUUM START")) {
          applied = true;
          change.apply();
        }
        return written;
      }
    };
  }

  private long parquetFiles() throws IOException {
    try (Stream<Path> files = Files.walk(dir.resolve("demo"))) {
      return files.filter(p -> p.toString().endsWith(".parquet")).count();
    }
  }

  /**
   * A directory of the table replaced by a link to elsewhere between the plan and the deletes (here
   * right after VACUUM START lands): the files behind the link are not deleted.
   */
  @Test
  void aDirectorySwappedForALinkAfterThePlan_isNotFollowedByTheDeletes() throws Exception {
    Path partition = dir.resolve("demo/event_date=2026-10-17");
    Path outside = Files.createDirectories(dir.resolve("outside"));
    Storage swapping =
        onceVacuumStartLands(
            () -> {
              try (Stream<Path> files = Files.list(partition)) {
                for (Path file : files.toList()) {
                  Files.copy(file, outside.resolve(file.getFileName()));
                }
              }
              Files.move(partition, dir.resolve("moved-away"));
              Files.createSymbolicLink(partition, outside);
            });
    long outsideBefore;

    VacuumResult result =
        executor(swapping, eightDaysLater)
            .vacuum(tables.loadLatest(location), VacuumMode.LITE, 168, false);
    try (Stream<Path> files = Files.list(outside)) {
      outsideBefore = files.count();
    }

    assertThat(result.plan().candidates()).hasSize(30);
    assertThat(outsideBefore)
        .as("the 10 expired files and the output behind the link are all still there")
        .isEqualTo(11);
    assertThat(result.deletedFiles()).as("only the other two partitions' 20").isEqualTo(20);
  }

  /**
   * A candidate file replaced by a link to a file outside the table between the plan and the
   * deletes: the listing saw a regular file, but the file behind the link is not deleted.
   */
  @Test
  void aFileSwappedForALinkAfterThePlan_leavesTheLinkedFileInPlace() throws Exception {
    Path partition = dir.resolve("demo/event_date=2026-10-17");
    Path outside = Files.createDirectories(dir.resolve("outside"));
    List<Path> swapped = new ArrayList<>();
    Storage swapping =
        onceVacuumStartLands(
            () -> {
              try (Stream<Path> files = Files.list(partition)) {
                for (Path file : files.sorted().toList()) {
                  Path target = outside.resolve(file.getFileName());
                  Files.move(file, target);
                  Files.createSymbolicLink(file, target);
                  swapped.add(target);
                }
              }
            });

    VacuumResult result =
        executor(swapping, eightDaysLater)
            .vacuum(tables.loadLatest(location), VacuumMode.LITE, 168, false);

    assertThat(result.plan().candidates()).hasSize(30);
    assertThat(swapped).as("the partition's 10 expired files and its output").hasSize(11);
    assertThat(swapped).allSatisfy(target -> assertThat(target).isRegularFile());
    assertThat(result.deletedFiles()).as("only the other two partitions' 20").isEqualTo(20);
  }

  @Test
  void today_nothingIsEligible_theRemovedFilesAreInsideTheRetention() {
    VacuumResult result =
        executor(storage, Clock.systemUTC())
            .vacuum(tables.loadLatest(location), VacuumMode.LITE, 168, false);

    assertThat(result.plan().candidates()).isEmpty();
    assertThat(result.plan().keptUnexpiredTombstones())
        .as("the 30 compacted files wait out the retention")
        .isEqualTo(30);
    assertThat(result.deletedFiles()).isZero();
  }

  @Test
  void dryRun_listsTheThirtyExpiredFiles_andDeletesNothing() throws Exception {
    VacuumResult result =
        executor(storage, eightDaysLater)
            .vacuum(tables.loadLatest(location), VacuumMode.LITE, 168, true);

    assertThat(result.plan().candidates())
        .hasSize(30)
        .allSatisfy(c -> assertThat(c.reason()).isEqualTo("expired_tombstone"));
    assertThat(result.deletedFiles()).isZero();
    assertThat(result.startVersion()).isNull();
    assertThat(parquetFiles()).isEqualTo(33);
  }

  @Test
  void apply_deletesTheExpiredFiles_recordsStartAndEnd_andTheTableReadsTheSame() throws Exception {
    TableSnapshot before = tables.loadLatest(location);
    String checksum =
        DuckDb.checksum(
            before.activeFiles(), List.of("event_id", "customer_id", "event_type", "amount"));

    VacuumResult result =
        executor(storage, eightDaysLater).vacuum(before, VacuumMode.LITE, 168, false);
    TableSnapshot after = tables.loadLatest(location);

    assertThat(result.deletedFiles()).isEqualTo(30);
    assertThat(result.startVersion()).isEqualTo(34);
    assertThat(result.endVersion()).isEqualTo(35);
    assertThat(parquetFiles()).isEqualTo(3);
    assertThat(after.activeFiles()).containsExactlyInAnyOrderElementsOf(before.activeFiles());
    assertThat(
            DuckDb.checksum(
                after.activeFiles(), List.of("event_id", "customer_id", "event_type", "amount")))
        .isEqualTo(checksum);
    String start = Files.readString(dir.resolve("demo/_delta_log/%020d.json".formatted(34)));
    String end = Files.readString(dir.resolve("demo/_delta_log/%020d.json".formatted(35)));
    assertThat(start)
        .contains("\"operation\":\"VACUUM START\"")
        .contains("\"numFilesToDelete\":\"30\"");
    assertThat(end).contains("\"operation\":\"VACUUM END\"").contains("\"numDeletedFiles\":\"30\"");
  }

  /**
   * The command's path: the sweep lists the table once and deletes a killed run's temporary object,
   * the vacuum plans over what the sweep handed back. Full mode, so an object the listing still
   * held would be a candidate or a hidden file; the counts show it is neither.
   */
  @Test
  void overTheSweepsListing_deletesWhatItWouldHaveListed_andNotTheSweptObjectAgain()
      throws Exception {
    Path partition = dir.resolve("demo/event_date=2026-10-17");
    Path orphan = Files.writeString(partition.resolve("orphan.parquet"), "x");
    Path temporary =
        Files.writeString(
            partition.resolve(
                LocalStorage.TEMP_PREFIX + "0f8fad5b-d9cb-469f-a165-70867728950e-part-9.parquet"),
            "x");
    FileTime old = FileTime.from(Clock.systemUTC().instant().minus(Duration.ofDays(9)));
    Files.setLastModifiedTime(orphan, old);
    Files.setLastModifiedTime(temporary, old);
    TableSnapshot before = tables.loadLatest(location);
    VacuumResult listedHere =
        executor(storage, eightDaysLater).vacuum(before, VacuumMode.FULL, 168, true);
    company.data.compactor.sweep.Sweeper.Listed swept =
        new company.data.compactor.sweep.Sweeper(
                storage,
                List.of(dir.resolve("scratch")),
                new company.data.compactor.sweep.SweepPolicy(
                    Duration.ofMinutes(20), Duration.ofHours(168)),
                eightDaysLater)
            .sweepAndList(location);

    VacuumResult result =
        executor(storage, eightDaysLater)
            .vacuum(before, VacuumMode.FULL, 168, false, swept.tableFiles());

    assertThat(swept.result().temporaryObjectsSwept()).isEqualTo(1);
    assertThat(temporary).doesNotExist();
    assertThat(listedHere.plan().keptHidden())
        .as("listed before the sweep: the temporary object is a hidden file")
        .isEqualTo(result.plan().keptHidden() + 1);
    assertThat(result.plan().candidates())
        .extracting(VacuumCandidate::path)
        .containsExactlyInAnyOrderElementsOf(
            listedHere.plan().candidates().stream().map(VacuumCandidate::path).toList())
        .contains(LocalStorage.toStoragePath(orphan));
    assertThat(result.deletedFiles()).isEqualTo(31);
    assertThat(orphan).doesNotExist();
    assertThat(parquetFiles()).isEqualTo(3);
  }

  /**
   * A table without checksum files (delta-rs writes none): VACUUM START and END change no file, so
   * no full checksum, which replays the whole table, is computed for them.
   */
  @Test
  void apply_onATableWithoutChecksumFiles_writesNoneForStartAndEnd() throws Exception {
    try (Stream<Path> log = Files.list(dir.resolve("demo/_delta_log"))) {
      for (Path crc : log.filter(p -> p.toString().endsWith(".crc")).toList()) {
        Files.delete(crc);
      }
    }
    TableSnapshot before = tables.loadLatest(location);

    VacuumResult result =
        executor(storage, eightDaysLater).vacuum(before, VacuumMode.LITE, 168, false);

    assertThat(result.deletedFiles()).isEqualTo(30);
    assertThat(result.endVersion()).isEqualTo(35);
    assertThat(dir.resolve("demo/_delta_log/%020d.crc".formatted(34))).doesNotExist();
    assertThat(dir.resolve("demo/_delta_log/%020d.crc".formatted(35))).doesNotExist();
    assertThat(tables.loadLatest(location).activeFiles())
        .containsExactlyInAnyOrderElementsOf(before.activeFiles());
  }

  @Test
  void full_removesAnOrphanOlderThanTheCutoff_andKeepsAYoungerOne() throws Exception {
    Path partition = dir.resolve("demo/event_date=2026-10-17");
    Path oldOrphan =
        Files.writeString(partition.resolve("orphan-old.parquet"), "from a crashed writer");
    Path youngOrphan =
        Files.writeString(partition.resolve("orphan-young.parquet"), "being written right now");
    Files.setLastModifiedTime(
        oldOrphan, FileTime.from(java.time.Instant.now().minus(Duration.ofDays(3))));
    Files.setLastModifiedTime(
        youngOrphan, FileTime.from(java.time.Instant.now().plus(Duration.ofDays(7))));

    VacuumResult result =
        executor(storage, eightDaysLater)
            .vacuum(tables.loadLatest(location), VacuumMode.FULL, 168, false);

    assertThat(result.plan().candidates())
        .filteredOn(c -> c.reason().equals("untracked"))
        .singleElement()
        .satisfies(c -> assertThat(c.path()).endsWith("orphan-old.parquet"));
    assertThat(oldOrphan).doesNotExist();
    assertThat(youngOrphan).exists();
    assertThat(dir.resolve("demo/_delta_log/00000000000000000000.json")).exists();
  }

  @Test
  void deletesGoInBatchesOfAThousand_severalAtOnce() throws Exception {
    Path partition = dir.resolve("demo/event_date=2026-10-18");
    for (int i = 0; i < 2500; i++) {
      Path orphan = Files.writeString(partition.resolve("orphan-" + i + ".parquet"), "x");
      Files.setLastModifiedTime(
          orphan, FileTime.from(java.time.Instant.now().minus(Duration.ofDays(3))));
    }
    List<Integer> batches = java.util.Collections.synchronizedList(new ArrayList<>());
    java.util.Set<String> threads = java.util.concurrent.ConcurrentHashMap.newKeySet();
    java.util.concurrent.CountDownLatch together = new java.util.concurrent.CountDownLatch(2);
    Storage counting =
        new ForwardingStorage(storage) {
          @Override
          public int deleteAll(Collection<String> paths) throws IOException {
            batches.add(paths.size());
            threads.add(Thread.currentThread().getName());
            together.countDown();
            try {
              // The first two batches meet here only if they run at the same time.
              together.await(5, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            return super.deleteAll(paths);
          }
        };

    VacuumResult result =
        executor(counting, eightDaysLater)
            .vacuum(tables.loadLatest(location), VacuumMode.FULL, 168, false);

    assertThat(result.deletedFiles()).isEqualTo(2530);
    assertThat(batches).containsExactlyInAnyOrder(1000, 1000, 530);
    assertThat(together.getCount()).as("two batches in flight at once").isZero();
    assertThat(threads).hasSizeGreaterThan(1);
    assertThat(parquetFiles()).isEqualTo(3);
  }
}
