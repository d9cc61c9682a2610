package company.data.compactor.compact.exec;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.compact.CompactionOptions;
import company.data.compactor.compact.CompactionPlan;
import company.data.compactor.compact.CompactionPlanner;
import company.data.compactor.compact.CompactionResult;
import company.data.compactor.compact.Layout;
import company.data.compactor.compact.PartitionFilter;
import company.data.compactor.compact.PartitionResult;
import company.data.compactor.delta.kernel.KernelDeltaTables;
import company.data.compactor.delta.kernel.KernelRewriteCommitter;
import company.data.compactor.delta.kernel.KernelTableWriter;
import company.data.compactor.demo.DemoSeeder;
import company.data.compactor.demo.DemoTable;
import company.data.compactor.model.ByteSizes;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.storage.Storage;
import company.data.compactor.storage.StoredObject;
import company.data.compactor.testing.DuckDb;
import company.data.compactor.testing.ForwardingStorage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compaction against a writer that never stops: another process appends every {@value
 * #APPEND_EVERY_MS} ms while the compactor's every storage request costs {@value #REQUEST_MS} ms
 * (an object store's round trip). A commit must get past the appends it lost to and land, not spend
 * each attempt re-reading every commit since its read version until other writers have outpaced all
 * of its attempts (issue 16, item 5: on S3 with a steady delta-rs appender, runs committed no
 * partition).
 */
class CompactionContentionIT {

  private static final long REQUEST_MS = 25;
  private static final long APPEND_EVERY_MS = 200;
  private static final List<String> DATA_COLUMNS =
      List.of("event_id", "customer_id", "event_type", "amount");

  @TempDir Path dir;

  /** The compactor's view of the table: every request takes a round trip's time. */
  private static final class RoundTrips extends ForwardingStorage {
    RoundTrips(Storage delegate) {
      super(delegate);
    }

    private static void roundTrip() {
      try {
        Thread.sleep(REQUEST_MS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    @Override
    public List<StoredObject> listFrom(String path) throws IOException {
      roundTrip();
      return super.listFrom(path);
    }

    @Override
    public StoredObject stat(String path) throws IOException {
      roundTrip();
      return super.stat(path);
    }

    @Override
    public InputStream openFrom(String path, long offset) throws IOException {
      roundTrip();
      return super.openFrom(path, offset);
    }

    @Override
    public boolean putIfAbsent(String path, byte[] content) throws IOException {
      roundTrip();
      return super.putIfAbsent(path, content);
    }
  }

  @Test
  void aSteadyAppender_everyPartitionStillCommits_everyRowOnce() throws Exception {
    LocalStorage local = new LocalStorage();
    KernelDeltaTables tables = new KernelDeltaTables(local);
    KernelTableWriter appender = new KernelTableWriter(local);
    TableLocation location = TableLocation.parse("demo", dir);
    new DemoSeeder(local, tables, appender).seed(location);
    TableSnapshot seeded = tables.loadLatest(location);
    CompactionPlan plan =
        CompactionPlanner.plan(
            seeded,
            new CompactionOptions(
                ByteSizes.mbToBytes(128),
                40.0,
                ByteSizes.mbToBytes(128),
                1L << 30,
                PartitionFilter.all(),
                OptionalLong.empty(),
                Layout.BIN_PACK,
                List.of()));

    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger appends = new AtomicInteger();
    Thread writer =
        new Thread(
            () -> {
              while (!stop.get()) {
                int i = DemoTable.APPENDS + appends.get();
                appender.append(location, DemoTable.partitionOf(i), DemoTable.rowsOf(i));
                appends.incrementAndGet();
                try {
                  Thread.sleep(APPEND_EVERY_MS);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "steady-appender");
    writer.start();
    CompactionResult result;
    try {
      // The plan is already some twenty versions behind when the first commit is tried.
      while (appends.get() < 20) {
        Thread.sleep(50);
      }
      Storage slow = new RoundTrips(local);
      result =
          new CompactionExecutor(
                  slow,
                  new KernelRewriteCommitter(slow, Clock.systemUTC()),
                  RewriteSettings.defaults(),
                  dir.resolve("scratch"),
                  Clock.systemUTC())
              .execute(plan, seeded);
    } finally {
      stop.set(true);
      writer.join();
    }

    assertThat(result.partitions())
        .extracting(PartitionResult::status)
        .as("every partition lands between the appends")
        .containsOnly(PartitionResult.Status.COMMITTED)
        .hasSize(3);
    TableSnapshot after = tables.loadLatest(location);
    long rows = (long) (DemoTable.APPENDS + appends.get()) * DemoTable.ROWS_PER_APPEND;
    List<DataFile> appended =
        after.activeFiles().stream()
            .filter(f -> f.numRecords().getAsLong() == DemoTable.ROWS_PER_APPEND)
            .toList();
    assertThat(appended).hasSize(appends.get());
    String expected =
        DuckDb.checksum(
            Stream.concat(seeded.activeFiles().stream(), appended.stream()).toList(), DATA_COLUMNS);
    assertThat(DuckDb.checksum(after.activeFiles(), DATA_COLUMNS))
        .isEqualTo(expected)
        .startsWith(rows + ":");
  }
}
