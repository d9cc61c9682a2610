package company.data.compactor.loghygiene;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.delta.CheckpointOutcome;
import company.data.compactor.delta.TableCheckpointer;
import company.data.compactor.delta.kernel.KernelDeltaTables;
import company.data.compactor.delta.kernel.KernelTableCheckpointer;
import company.data.compactor.delta.kernel.KernelTableWriter;
import company.data.compactor.delta.kernel.KernelVersions;
import company.data.compactor.demo.DemoSeeder;
import company.data.compactor.lease.Lease;
import company.data.compactor.lease.Leases;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.storage.StoredObject;
import company.data.compactor.wiring.Wiring;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Log cleanup under a lease (issue 17, data safety): a run whose lease another run took over while
 * it wrote the checkpoint deletes no log file, as {@code LeaseCliIT}'s takeover stops compaction
 * before its next commit. The takeover happens right after the checkpoint is written, the moment
 * between writing it and deleting expired commits.
 */
class LogCleanupFencingIT {

  private static final Map<String, String> ENV = Map.of();

  @TempDir Path tables;
  @TempDir Path workA;
  @TempDir Path workB;

  private final LocalStorage storage = new LocalStorage();
  private final Clock fortyDaysLater = Clock.offset(Clock.systemUTC(), Duration.ofDays(40));

  private List<String> log(TableLocation table) throws Exception {
    return storage.listFrom(table.child("_delta_log/0")).stream().map(StoredObject::name).toList();
  }

  /** Writes the checkpoint, then lets another run, whose clock says the lease expired, take it. */
  private record TakeOverAfterCheckpoint(
      TableCheckpointer delegate, Path otherWorkDir, AtomicReference<String> takenBy)
      implements TableCheckpointer {
    @Override
    public CheckpointOutcome checkpoint(TableLocation location, long version) {
      CheckpointOutcome outcome = delegate.checkpoint(location, version);
      Clock later = Clock.offset(Clock.systemUTC(), Duration.ofHours(1));
      takenBy.set(Wiring.leases(otherWorkDir, ENV, later).take(location, "taker").owner());
      return outcome;
    }
  }

  @Test
  void aLeaseTakenOverAfterTheCheckpoint_deletesNoLogFile_andReportsTheRunFenced()
      throws Exception {
    TableLocation table = TableLocation.parse(tables.resolve("events").toString(), tables);
    KernelDeltaTables kernel = new KernelDeltaTables(storage);
    new DemoSeeder(storage, kernel, new KernelTableWriter(storage)).seed(table);
    TableSnapshot snapshot = kernel.loadLatest(table);
    List<String> before = log(table);
    AtomicReference<String> takenBy = new AtomicReference<>();
    Leases leases = Wiring.leases(workA, ENV, Clock.systemUTC());
    Lease lease = leases.take(table, "cleaner");

    Leases.Held<LogCleanupResult> held =
        leases.hold(
            lease,
            guard ->
                new LogCleanupExecutor(
                        storage,
                        new TakeOverAfterCheckpoint(
                            new KernelTableCheckpointer(storage), workB, takenBy),
                        new LogCleanupPlanner(fortyDaysLater))
                    .guardedBy(guard)
                    .clean(snapshot, LogCleanupMode.APPLY));

    LogCleanupResult result = held.value();
    assertThat(takenBy.get()).isEqualTo("taker");
    assertThat(result.checkpointStatus()).isEqualTo(CheckpointStatus.WRITTEN);
    assertThat(result.plan().expired()).as("what would have gone").hasSize(30);
    assertThat(result.deletedFiles()).isZero();
    assertThat(result.fenced()).isTrue();
    assertThat(result.fencedReason())
        .contains("commit to " + table.uri() + " for run cleaner")
        .contains("is no longer run cleaner's");
    assertThat(held.lost()).isPresent();
    assertThat(log(table))
        .as("every commit kept; only the checkpoint written before the takeover is new")
        .containsAll(before)
        .contains("00000000000000000030.checkpoint.parquet", "_last_checkpoint")
        .hasSize(before.size() + 2);
    assertThat(KernelVersions.readable(storage, table.uri(), 0)).isTrue();
  }

  @Test
  void aLeaseLostBeforeTheCheckpoint_writesNothing() throws Exception {
    TableLocation table = TableLocation.parse(tables.resolve("events").toString(), tables);
    KernelDeltaTables kernel = new KernelDeltaTables(storage);
    new DemoSeeder(storage, kernel, new KernelTableWriter(storage)).seed(table);
    TableSnapshot snapshot = kernel.loadLatest(table);
    List<String> before = log(table);
    Leases leases = Wiring.leases(workA, ENV, Clock.systemUTC());
    Lease lease = leases.take(table, "cleaner");

    Leases.Held<LogCleanupResult> held =
        leases.hold(
            lease,
            guard -> {
              Clock later = Clock.offset(Clock.systemUTC(), Duration.ofHours(1));
              Wiring.leases(workB, ENV, later).take(table, "taker");
              return new LogCleanupExecutor(
                      storage,
                      new KernelTableCheckpointer(storage),
                      new LogCleanupPlanner(fortyDaysLater))
                  .guardedBy(guard)
                  .clean(snapshot, LogCleanupMode.APPLY);
            });

    LogCleanupResult result = held.value();
    assertThat(result.checkpointStatus()).isEqualTo(CheckpointStatus.SKIPPED);
    assertThat(result.deletedFiles()).isZero();
    assertThat(result.fenced()).isTrue();
    assertThat(log(table)).isEqualTo(before);
  }
}
