package company.data.compactor.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import company.data.compactor.admission.Admission;
import company.data.compactor.admission.Trigger;
import company.data.compactor.compact.exec.CompactionExecutor;
import company.data.compactor.compact.exec.RewriteSettings;
import company.data.compactor.delta.DeltaTables;
import company.data.compactor.delta.kernel.KernelDeletionVectorLoader;
import company.data.compactor.delta.kernel.KernelDeltaTables;
import company.data.compactor.delta.kernel.KernelLogReader;
import company.data.compactor.delta.kernel.KernelRewriteCommitter;
import company.data.compactor.delta.kernel.KernelTableCheckpointer;
import company.data.compactor.delta.kernel.KernelTableWriter;
import company.data.compactor.demo.DemoSeeder;
import company.data.compactor.error.Errors;
import company.data.compactor.lease.LeaseGuard;
import company.data.compactor.lease.Leases;
import company.data.compactor.loghygiene.LogCleanupExecutor;
import company.data.compactor.loghygiene.LogCleanupPlanner;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.notify.NoNotifier;
import company.data.compactor.report.MaintenanceReport;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.storage.Storage;
import company.data.compactor.storage.StoredObject;
import company.data.compactor.sweep.SweepPolicy;
import company.data.compactor.sweep.Sweeper;
import company.data.compactor.telemetry.JsonLinesTelemetrySink;
import company.data.compactor.testing.ForwardingStorage;
import company.data.compactor.testing.HandLoggedTables;
import company.data.compactor.vacuum.Retention;
import company.data.compactor.vacuum.VacuumExecutor;
import company.data.compactor.vacuum.VacuumPlanner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Adversarial: the vacuum command lists the table while its snapshot loads. Writers racing that
 * load, refusals and failures of either side must lose nothing and leave nothing running.
 */
class VacuumListingRaceIT {

  @TempDir Path work;

  private final LocalStorage local = new LocalStorage();
  private TableLocation table;
  private final long tenDaysAgo = Instant.now().minus(Duration.ofDays(10)).toEpochMilli();

  /** Fires once the (first) listing of the table has returned. */
  private final CountDownLatch listed = new CountDownLatch(1);

  /** What listRecursively does (default: the real listing). */
  private volatile ListingBehaviour listing = prefix -> local.listRecursively(prefix);

  /** Runs inside loadLatest, before the real load. */
  private volatile DuringLoad duringLoad = () -> {};

  interface ListingBehaviour {
    List<StoredObject> list(String prefix) throws IOException;
  }

  interface DuringLoad {
    void run() throws Exception;
  }

  /**
   * v0 adds a.parquet and b.parquet; v1 removes a.parquet. Both 10 days old, so a.parquet's
   * tombstone is expired and a lite vacuum deletes a.parquet.
   */
  @BeforeEach
  void handLoggedTable() throws Exception {
    table = TableLocation.parse("t", work);
    String[] pm = HandLoggedTables.protocolAndMetadata();
    HandLoggedTables.commit(
        local, table, 0, tenDaysAgo, pm[0], pm[1], add("a.parquet"), add("b.parquet"));
    HandLoggedTables.commit(local, table, 1, tenDaysAgo, remove("a.parquet"));
    HandLoggedTables.dataFile(local, table, "a.parquet");
    HandLoggedTables.dataFile(local, table, "b.parquet");
    Path stale =
        table
            .localPath()
            .resolve(".compactor-tmp-0f8fad5b-d9cb-469f-a165-70867728950e-part-1.parquet");
    Files.writeString(stale, "12345");
    try (Stream<Path> files = Files.walk(table.localPath())) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        Files.setLastModifiedTime(f, FileTime.fromMillis(tenDaysAgo));
      }
    }
  }

  private String add(String path) {
    return "{\"add\":{\"path\":\""
        + path
        + "\",\"partitionValues\":{},\"size\":18,\"modificationTime\":"
        + tenDaysAgo
        + ",\"dataChange\":true}}";
  }

  private String remove(String path) {
    return HandLoggedTables.remove(path, tenDaysAgo);
  }

  private MaintenancePipeline pipeline() {
    Storage storage =
        new ForwardingStorage(local) {
          @Override
          public List<StoredObject> listRecursively(String prefix) throws IOException {
            try {
              return listing.list(prefix);
            } finally {
              listed.countDown();
            }
          }
        };
    KernelDeltaTables kernel = new KernelDeltaTables(storage);
    DeltaTables tables =
        new DeltaTables() {
          @Override
          public TableSnapshot loadLatest(TableLocation location) {
            try {
              duringLoad.run();
            } catch (RuntimeException | Error e) {
              throw e;
            } catch (Exception e) {
              throw new IllegalStateException(e);
            }
            return kernel.loadLatest(location);
          }

          @Override
          public TableSnapshot loadAt(TableLocation location, long version) {
            return kernel.loadAt(location, version);
          }

          @Override
          public boolean exists(TableLocation location) {
            return kernel.exists(location);
          }
        };
    Clock clock = Clock.systemUTC();
    KernelRewriteCommitter committer = new KernelRewriteCommitter(storage, clock);
    return new MaintenancePipeline(
        new PipelinePorts(
            tables,
            new DemoSeeder(storage, kernel, new KernelTableWriter(storage)),
            new CompactionExecutor(
                storage,
                committer,
                new KernelDeletionVectorLoader(storage),
                RewriteSettings.defaults(),
                work.resolve("scratch"),
                clock),
            new company.data.compactor.probe.StorageReadProbe(
                storage,
                company.data.compactor.probe.ProbeSettings.fromEnvironment(Map.of()),
                work.resolve("probe")),
            new VacuumExecutor(
                storage, new KernelLogReader(storage), committer, new VacuumPlanner(clock)),
            new LogCleanupExecutor(
                storage, new KernelTableCheckpointer(storage), new LogCleanupPlanner(clock)),
            new Sweeper(
                storage,
                List.of(work.resolve("scratch")),
                new SweepPolicy(Leases.DEFAULT_TTL, Retention.FLOOR),
                clock),
            new JsonLinesTelemetrySink(work.resolve("telemetry.jsonl")),
            report -> Optional.empty(),
            new NoNotifier(),
            clock,
            () -> "race",
            LeaseGuard.UNGUARDED));
  }

  private MaintenanceReport vacuum(String mode, boolean dryRun) {
    return pipeline()
        .vacuumOnly(
            Admission.configuredBy(Map.of(), work)
                .admit(
                    Trigger.CLI,
                    Map.of(
                        "table_uri", "t",
                        "vacuum_dry_run", dryRun,
                        "vacuum_mode", mode)));
  }

  private List<String> filesUnder(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files
          .filter(Files::isRegularFile)
          .map(f -> f + "@" + mtime(f))
          .filter(f -> !f.contains("telemetry"))
          .sorted()
          .toList();
    }
  }

  private static long mtime(Path f) {
    try {
      return Files.getLastModifiedTime(f).toMillis();
    } catch (IOException e) {
      throw new RuntimeException(e);
    }
  }

  private static boolean listingThreadAlive() {
    return Thread.getAllStackTraces().keySet().stream()
        .anyMatch(t -> t.getName().equals("vacuum-listing") && t.isAlive());
  }

  private Path a() {
    return table.localPath().resolve("a.parquet");
  }

  /** The writer's actions during the load happen after the listing returned, if it has. */
  private void afterTheListing() throws InterruptedException {
    listed.await(2, TimeUnit.SECONDS);
  }

  // --- baseline ---------------------------------------------------------------------------

  @Test
  void baseline_lite_deletesTheExpiredTombstone_keepsTheLiveFile() throws Exception {
    MaintenanceReport report = vacuum("lite", false);

    assertThat(a()).doesNotExist();
    assertThat(table.localPath().resolve("b.parquet")).exists();
    assertThat(report.vacuum().deletedFilesCount()).isEqualTo(1);
  }

  // --- writers racing the load ------------------------------------------------------------

  /**
   * A writer reuses the expired path a.parquet: it writes new bytes there while the vacuum loads
   * the snapshot, and commits the add once the vacuum is done. A listing taken after the load sees
   * the new modification time (young: kept); the listing taken before it carries the old one.
   */
  @Test
  void aPathRewrittenDuringTheLoad_andCommittedAfter_isKept() throws Exception {
    duringLoad =
        () -> {
          afterTheListing();
          Files.writeString(a(), "new bytes, written now");
        };

    vacuum("lite", false);

    assertThat(a()).as("rewritten during the load: young when the load ended").exists();
  }

  @Test
  void aReAddCommittedDuringTheLoad_isKept_lite() throws Exception {
    duringLoad =
        () -> {
          afterTheListing();
          HandLoggedTables.commit(local, table, 2, System.currentTimeMillis(), add("a.parquet"));
        };

    vacuum("lite", false);

    assertThat(a()).exists();
    assertThat(table.localPath().resolve("b.parquet")).exists();
  }

  @Test
  void aReAddCommittedDuringTheLoad_isKept_full() throws Exception {
    duringLoad =
        () -> {
          afterTheListing();
          HandLoggedTables.commit(local, table, 2, System.currentTimeMillis(), add("a.parquet"));
        };

    vacuum("full", false);

    assertThat(a()).exists();
    assertThat(table.localPath().resolve("b.parquet")).exists();
  }

  /** A file written and committed during the load is not in the early listing: never deleted. */
  @Test
  void aFileWrittenAndCommittedDuringTheLoad_isKept_full() throws Exception {
    Path c = table.localPath().resolve("c.parquet");
    duringLoad =
        () -> {
          afterTheListing();
          Files.writeString(c, "bytes of c.parquet");
          Files.setLastModifiedTime(c, FileTime.fromMillis(tenDaysAgo));
          HandLoggedTables.commit(local, table, 2, System.currentTimeMillis(), add("c.parquet"));
        };

    vacuum("full", false);

    assertThat(c).exists();
  }

  // --- refusals ---------------------------------------------------------------------------

  @Test
  void aRefusedLoad_rethrowsItsOwnException_afterTheListingEnded_andTouchesNothing()
      throws Exception {
    List<String> before = filesUnder(work);
    RuntimeException refusal = Errors.tableNotFound(table, null);
    listing =
        prefix -> {
          sleep(700);
          return local.listRecursively(prefix);
        };
    duringLoad =
        () -> {
          throw refusal;
        };

    assertThatThrownBy(() -> vacuum("full", false)).isSameAs(refusal);

    assertThat(listingThreadAlive()).as("the listing has ended").isFalse();
    assertThat(filesUnder(work)).isEqualTo(before);
  }

  @Test
  void anErrorInTheLoad_isRethrownUnchanged_afterTheListing() throws Exception {
    List<String> before = filesUnder(work);
    Error error = new StackOverflowError("load blew up");
    listing =
        prefix -> {
          sleep(300);
          return local.listRecursively(prefix);
        };
    duringLoad =
        () -> {
          throw error;
        };

    assertThatThrownBy(() -> vacuum("lite", false)).isSameAs(error);

    assertThat(listingThreadAlive()).as("the listing has ended").isFalse();
    assertThat(filesUnder(work)).isEqualTo(before);
  }

  @Test
  void aLoadRefusedWhileTheListingAlsoFails_rethrowsTheLoadsException() throws Exception {
    RuntimeException refusal = Errors.tableNotFound(table, null);
    listing =
        prefix -> {
          throw new IllegalStateException("listing blew up");
        };
    duringLoad =
        () -> {
          afterTheListing();
          throw refusal;
        };

    assertThatThrownBy(() -> vacuum("lite", false)).isSameAs(refusal);
  }

  /**
   * The run's thread is interrupted as its load is refused: the listing is still stopped and its
   * thread has ended before the refusal is reported, and the interrupt is kept for the caller.
   */
  @Test
  void anInterruptedRunRefusedByItsLoad_stopsItsListingBeforeReporting() throws Exception {
    RuntimeException refusal = Errors.tableNotFound(table, null);
    CountDownLatch release = new CountDownLatch(1);
    listing =
        prefix -> {
          try {
            release.await(30, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          return local.listRecursively(prefix);
        };
    duringLoad =
        () -> {
          Thread.currentThread().interrupt();
          throw refusal;
        };
    try {
      long started = System.nanoTime();
      assertThatThrownBy(() -> vacuum("lite", false)).isSameAs(refusal);
      assertThat(Thread.interrupted()).as("interrupt kept").isTrue();
      assertThat(listingThreadAlive()).as("listing still running after the refusal").isFalse();
      assertThat(Duration.ofNanos(System.nanoTime() - started))
          .as("stopped, not waited out")
          .isLessThan(Duration.ofSeconds(20));
    } finally {
      release.countDown();
    }
  }

  @Test
  void aDryRun_listsNothing_deletesNothing() throws Exception {
    List<String> before = filesUnder(work);

    MaintenanceReport report = vacuum("full", true);

    assertThat(filesUnder(work)).isEqualTo(before);
    assertThat(report.vacuum().candidateFilesCount()).isEqualTo(1);
  }

  // --- listing failures -------------------------------------------------------------------

  @Test
  void aListingIoFailure_vacuumListsForItself_andStillDeletesOnlyTheExpired() throws Exception {
    listing =
        new ListingBehaviour() {
          private boolean first = true;

          @Override
          public synchronized List<StoredObject> list(String prefix) throws IOException {
            if (first) {
              first = false;
              throw new IOException("listing failed once");
            }
            return local.listRecursively(prefix);
          }
        };

    MaintenanceReport report = vacuum("full", false);

    assertThat(a()).doesNotExist();
    assertThat(table.localPath().resolve("b.parquet")).exists();
    assertThat(report.vacuum().deletedFilesCount()).isEqualTo(1);
  }

  @Test
  void aListingRuntimeFailure_failsTheRun_deletingNothing() throws Exception {
    List<String> before = filesUnder(work);
    IllegalStateException boom = new IllegalStateException("listing blew up");
    listing =
        prefix -> {
          throw boom;
        };

    assertThatThrownBy(() -> vacuum("full", false)).isSameAs(boom);

    assertThat(filesUnder(work)).isEqualTo(before);
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
