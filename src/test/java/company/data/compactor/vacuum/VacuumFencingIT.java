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
import company.data.compactor.error.Errors;
import company.data.compactor.lease.LeaseGuard;
import company.data.compactor.model.ByteSizes;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.LocalStorage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Vacuum asks the run's lease before it commits {@code VACUUM START}, before each batch of deletes
 * and before {@code VACUUM END}: a run whose lease another run took over while it planned (minutes
 * on a big table) or while it deleted stops there, deleting and committing nothing more.
 */
class VacuumFencingIT {

  private static final String TAKEN =
      "Refused to go on: the lease of this table was taken over by run other-run";

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

  /** A guard held for the first {@code held} questions, lost from then on. */
  private static LeaseGuard heldFor(int held, AtomicInteger asked) {
    return () -> {
      if (asked.incrementAndGet() > held) {
        throw Errors.refused("go on", "the lease of this table was taken over by run other-run");
      }
    };
  }

  private VacuumResult vacuum(LeaseGuard guard) {
    return new VacuumExecutor(
            storage,
            new KernelLogReader(storage),
            new KernelRewriteCommitter(storage, eightDaysLater),
            new VacuumPlanner(eightDaysLater))
        .guardedBy(guard)
        .vacuum(tables.loadLatest(location), VacuumMode.LITE, 168, false);
  }

  private long parquetFiles() throws IOException {
    try (Stream<Path> files = Files.walk(dir.resolve("demo"))) {
      return files.filter(p -> p.toString().endsWith(".parquet")).count();
    }
  }

  @Test
  void aLeaseLostWhileItPlanned_deletesAndCommitsNothing() throws IOException {
    long version = tables.loadLatest(location).version();
    long files = parquetFiles();

    VacuumResult result = vacuum(heldFor(0, new AtomicInteger()));

    assertThat(result.plan().candidates()).hasSize(30);
    assertThat(result.fencedReason()).isEqualTo(TAKEN);
    assertThat(result.deletedFiles()).isZero();
    assertThat(result.startVersion()).as("no VACUUM START").isNull();
    assertThat(parquetFiles()).isEqualTo(files);
    assertThat(tables.loadLatest(location).version()).isEqualTo(version);
  }

  @Test
  void aLeaseLostAfterVacuumStart_deletesNothingAndCommitsNoEnd() throws IOException {
    long version = tables.loadLatest(location).version();
    long files = parquetFiles();
    AtomicInteger asked = new AtomicInteger();

    VacuumResult result = vacuum(heldFor(1, asked));

    assertThat(result.fenced()).isTrue();
    assertThat(result.startVersion()).isEqualTo(version + 1);
    assertThat(result.endVersion()).as("no VACUUM END after the lease was lost").isNull();
    assertThat(result.deletedFiles()).isZero();
    assertThat(parquetFiles()).as("all 30 candidates are still there").isEqualTo(files);
    assertThat(tables.loadLatest(location).version()).isEqualTo(version + 1);
  }

  @Test
  void aLeaseHeldThroughout_deletesEveryCandidate() throws IOException {
    long files = parquetFiles();
    AtomicInteger asked = new AtomicInteger();

    VacuumResult result = vacuum(heldFor(Integer.MAX_VALUE, asked));

    assertThat(result.fenced()).isFalse();
    assertThat(result.deletedFiles()).isEqualTo(30);
    assertThat(parquetFiles()).isEqualTo(files - 30);
    assertThat(asked.get()).as("before START, the one batch, and before END").isEqualTo(3);
  }
}
