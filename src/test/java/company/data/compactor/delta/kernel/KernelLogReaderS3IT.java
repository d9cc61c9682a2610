package company.data.compactor.delta.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.delta.LogHistory;
import company.data.compactor.delta.Tombstone;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.s3.S3Clients;
import company.data.compactor.storage.s3.S3Storage;
import company.data.compactor.testing.FaultProxy;
import company.data.compactor.testing.S3ProxyServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * On S3 the log's commits are fetched many at once (each costs the store's request latency, not its
 * few bytes) and merged in version order: the history is the same as read one at a time.
 */
class KernelLogReaderS3IT {

  private static final int COMMITS = 150;

  @TempDir Path work;

  @Test
  void manyCommits_areReadConcurrently_withTheSameHistoryAsOneAtATime() throws Exception {
    S3ProxyServer server = S3ProxyServer.shared();
    String bucket = server.newBucket();
    TableLocation table = new TableLocation("s3://" + bucket + "/t");
    try (S3Client direct = server.client()) {
      S3Storage storage = new S3Storage(direct, work.resolve("uploads"));
      for (int v = 0; v < COMMITS; v++) {
        storage.putIfAbsent(
            table.child(String.format("_delta_log/%020d.json", v)),
            commit(v).getBytes(StandardCharsets.UTF_8));
      }
      LogHistory oneAtATime = new KernelLogReader(storage, 1).read(table);

      try (FaultProxy proxy = FaultProxy.in(server.endpoint())) {
        Map<String, String> env = new HashMap<>(server.environment());
        env.put("AWS_ENDPOINT_URL_S3", proxy.endpoint().toString());
        try (S3Client viaProxy = S3Clients.fromEnvironment(env)) {
          LogHistory concurrent =
              new KernelLogReader(new S3Storage(viaProxy, work.resolve("proxied"))).read(table);

          assertThat(concurrent.latestVersion()).isEqualTo(COMMITS - 1);
          assertThat(concurrent.oldestCommitVersion()).isZero();
          assertThat(concurrent.oldestCommitMillis()).isEqualTo(oneAtATime.oldestCommitMillis());
          assertThat(sorted(concurrent.tombstones())).isEqualTo(sorted(oneAtATime.tombstones()));
          assertThat(concurrent.readdedPaths()).isEqualTo(oneAtATime.readdedPaths());
          // f0..f148 and again.parquet (removed at 145, re-added at 148: the latest wins).
          assertThat(concurrent.tombstones()).hasSize(COMMITS);
          assertThat(concurrent.readdedPaths())
              .containsExactlyInAnyOrder(table.uri() + "/again.parquet");
          List<FaultProxy.Seen> commitGets = proxy.awaitSeen("GET", ".json", COMMITS);
          assertThat(commitGets).hasSize(COMMITS);
          assertThat(FaultProxy.maxInFlight(commitGets))
              .as("commit files fetched at once")
              .isBetween(2, KernelLogReader.DEFAULT_CONCURRENCY);
        }
      }
    }
  }

  @Test
  void aSnapshotLoad_fetchesTheLogTailConcurrently_eachCommitOnce() throws Exception {
    S3ProxyServer server = S3ProxyServer.shared();
    String bucket = server.newBucket();
    TableLocation table = new TableLocation("s3://" + bucket + "/t");
    try (S3Client direct = server.client()) {
      S3Storage storage = new S3Storage(direct, work.resolve("uploads"));
      for (int v = 0; v < COMMITS; v++) {
        storage.putIfAbsent(
            table.child(String.format("_delta_log/%020d.json", v)),
            commit(v).getBytes(StandardCharsets.UTF_8));
      }
      try (FaultProxy proxy = FaultProxy.in(server.endpoint())) {
        Map<String, String> env = new HashMap<>(server.environment());
        env.put("AWS_ENDPOINT_URL_S3", proxy.endpoint().toString());
        try (S3Client viaProxy = S3Clients.fromEnvironment(env)) {
          TableSnapshot snapshot =
              new KernelDeltaTables(new S3Storage(viaProxy, work.resolve("proxied")))
                  .loadLatest(table);

          assertThat(snapshot.version()).isEqualTo(COMMITS - 1);
          assertThat(snapshot.activeFiles())
              .extracting(DataFile::logPath)
              .containsExactlyInAnyOrder("f149.parquet", "again.parquet");
          List<FaultProxy.Seen> commitGets = proxy.awaitSeen("GET", ".json", COMMITS);
          assertThat(commitGets).as("each commit fetched once").hasSize(COMMITS);
          assertThat(FaultProxy.maxInFlight(commitGets))
              .as("commit files fetched at once")
              .isBetween(2, KernelDeltaTables.LOG_TAIL_CONCURRENCY);
        }
      }
    }
  }

  /**
   * Commit {@code v} adds {@code f<v>.parquet} and removes the previous one; {@code again.parquet}
   * is removed in versions ending in 5 and added again in those ending in 8 (last: 148).
   */
  private static String commit(int v) {
    StringBuilder s = new StringBuilder();
    if (v == 0) {
      s.append("{\"protocol\":{\"minReaderVersion\":1,\"minWriterVersion\":2}}\n");
      s.append(
          "{\"metaData\":{\"id\":\"t\",\"format\":{\"provider\":\"parquet\",\"options\":{}},"
              + "\"schemaString\":\"{\\\"type\\\":\\\"struct\\\",\\\"fields\\\":[{\\\"name\\\":"
              + "\\\"a\\\",\\\"type\\\":\\\"long\\\",\\\"nullable\\\":true,\\\"metadata\\\":{}}]}\","
              + "\"partitionColumns\":[],\"configuration\":{},\"createdTime\":1}}\n");
    }
    s.append("{\"commitInfo\":{\"timestamp\":")
        .append(1_000_000L + v * 1000L)
        .append(",\"operation\":\"WRITE\"}}\n");
    s.append("{\"add\":{\"path\":\"f")
        .append(v)
        .append(".parquet\",\"partitionValues\":{},\"size\":1,\"modificationTime\":1,")
        .append("\"dataChange\":true}}\n");
    if (v > 0) {
      s.append("{\"remove\":{\"path\":\"f")
          .append(v - 1)
          .append(".parquet\",\"deletionTimestamp\":")
          .append(1_000_000L + v * 1000L)
          .append(",\"dataChange\":true}}\n");
    }
    if (v % 10 == 5) {
      s.append(
          "{\"remove\":{\"path\":\"again.parquet\",\"deletionTimestamp\":1,\"dataChange\":true}}\n");
    }
    if (v % 10 == 8) {
      s.append(
          "{\"add\":{\"path\":\"again.parquet\",\"partitionValues\":{},\"size\":1,"
              + "\"modificationTime\":1,\"dataChange\":true}}\n");
    }
    return s.toString();
  }

  private static List<Tombstone> sorted(List<Tombstone> tombstones) {
    return tombstones.stream().sorted(Comparator.comparing(Tombstone::path)).toList();
  }
}
