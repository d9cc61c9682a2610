package company.data.compactor.vacuum;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.delta.kernel.KernelDeltaTables;
import company.data.compactor.delta.kernel.KernelLogReader;
import company.data.compactor.delta.kernel.KernelRewriteCommitter;
import company.data.compactor.delta.kernel.KernelTableWriter;
import company.data.compactor.demo.DemoSeeder;
import company.data.compactor.model.TableLocation;
import company.data.compactor.storage.Storage;
import company.data.compactor.storage.s3.S3Storage;
import company.data.compactor.testing.ForwardingStorage;
import company.data.compactor.testing.S3ProxyServer;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/** Vacuum on S3: 2,500 orphans older than the cutoff go in three delete calls. */
class S3VacuumIT {

  @TempDir Path dir;

  @Test
  void fullMode_deletes2500OrphansInThreeCalls() throws Exception {
    S3ProxyServer server = S3ProxyServer.shared();
    String bucket = server.newBucket();
    try (S3Client client = server.client()) {
      S3Storage s3 = new S3Storage(client, dir.resolve("uploads"));
      TableLocation location = TableLocation.parse("s3://" + bucket + "/demo", dir);
      KernelDeltaTables tables = new KernelDeltaTables(s3);
      new DemoSeeder(s3, tables, new KernelTableWriter(s3)).seed(location);
      ExecutorService pool = Executors.newFixedThreadPool(16);
      try {
        List<Future<?>> puts = new ArrayList<>();
        for (int i = 0; i < 2500; i++) {
          String key = "demo/event_date=2026-10-17/orphan-" + i + ".parquet";
          puts.add(
              pool.submit(
                  () ->
                      client.putObject(
                          b -> b.bucket(bucket).key(key), RequestBody.fromString("x"))));
        }
        for (Future<?> put : puts) {
          put.get();
        }
      } finally {
        pool.shutdownNow();
      }
      List<Integer> calls = java.util.Collections.synchronizedList(new ArrayList<>());
      Storage counting =
          new ForwardingStorage(s3) {
            @Override
            public int deleteAll(Collection<String> paths) throws IOException {
              calls.add(paths.size());
              return super.deleteAll(paths);
            }
          };
      Clock later = Clock.offset(Clock.systemUTC(), Duration.ofDays(8));

      VacuumResult result =
          new VacuumExecutor(
                  counting,
                  new KernelLogReader(s3),
                  new KernelRewriteCommitter(s3, later),
                  new VacuumPlanner(later))
              .vacuum(tables.loadLatest(location), VacuumMode.FULL, 168, false);

      assertThat(result.deletedFiles()).isEqualTo(2500);
      // Three DeleteObjects requests, sent concurrently, so in any order.
      assertThat(calls).containsExactlyInAnyOrder(1000, 1000, 500);
      assertThat(s3.listRecursively("s3://" + bucket + "/demo/event_date=2026-10-17")).hasSize(10);
      assertThat(tables.loadLatest(location).activeFiles()).hasSize(30);
    }
  }
}
