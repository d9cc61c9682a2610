package company.data.compactor.compact.exec;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.compact.CompactionOptions;
import company.data.compactor.compact.CompactionPlan;
import company.data.compactor.compact.CompactionPlanner;
import company.data.compactor.compact.CompactionResult;
import company.data.compactor.compact.Layout;
import company.data.compactor.compact.PartitionFilter;
import company.data.compactor.compact.PartitionResult;
import company.data.compactor.delta.kernel.KernelDeletionVectorLoader;
import company.data.compactor.delta.kernel.KernelDeltaTables;
import company.data.compactor.delta.kernel.KernelRewriteCommitter;
import company.data.compactor.delta.kernel.KernelTableWriter;
import company.data.compactor.demo.DemoSeeder;
import company.data.compactor.demo.DemoTable;
import company.data.compactor.model.ByteSizes;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.s3.S3Storage;
import company.data.compactor.testing.S3ProxyServer;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

/** Racing writers on S3: commits are conditional PUTs, so exactly one writer gets each version. */
class S3CompactionRacesIT {

  @TempDir Path dir;
  private final S3Client client = S3ProxyServer.shared().client();

  @AfterEach
  void close() {
    client.close();
  }

  @Test
  void twoCompactionsOfTheSameFiles_oneWinsPerPartition_andAConcurrentAppendSurvives() {
    S3Storage storage = new S3Storage(client, dir.resolve("uploads"));
    KernelDeltaTables tables = new KernelDeltaTables(storage);
    KernelTableWriter writer = new KernelTableWriter(storage);
    TableLocation location =
        TableLocation.parse("s3://" + S3ProxyServer.shared().newBucket() + "/demo", dir);
    new DemoSeeder(storage, tables, writer).seed(location);
    TableSnapshot seeded = tables.loadLatest(location);
    CompactionOptions options =
        new CompactionOptions(
            ByteSizes.mbToBytes(128),
            40,
            ByteSizes.mbToBytes(128),
            1L << 30,
            PartitionFilter.all(),
            OptionalLong.empty(),
            Layout.BIN_PACK,
            List.of());
    CompactionPlan first = CompactionPlanner.plan(seeded, options);
    CompactionPlan second = CompactionPlanner.plan(seeded, options);
    CompactionExecutor executor =
        new CompactionExecutor(
            storage,
            new KernelRewriteCommitter(storage, Clock.systemUTC()),
            new KernelDeletionVectorLoader(storage),
            RewriteSettings.defaults(),
            dir.resolve("scratch"),
            Clock.systemUTC());

    writer.append(location, DemoTable.partitionOf(0), DemoTable.rowsOf(30));
    CompactionResult won = executor.execute(first, seeded);
    CompactionResult lost = executor.execute(second, seeded);
    TableSnapshot after = tables.loadLatest(location);

    assertThat(won.partitions())
        .extracting(PartitionResult::status)
        .containsOnly(PartitionResult.Status.COMMITTED);
    assertThat(lost.partitions())
        .extracting(PartitionResult::status)
        .containsOnly(PartitionResult.Status.CONFLICTED);
    assertThat(after.version()).isEqualTo(34);
    assertThat(after.activeFiles()).hasSize(4);
    assertThat(after.activeFiles().stream().mapToLong(f -> f.numRecords().getAsLong()).sum())
        .isEqualTo(1550);
  }
}
