package company.data.compactor.delta.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.delta.LogHistory;
import company.data.compactor.delta.Tombstone;
import company.data.compactor.model.TableLocation;
import company.data.compactor.storage.LocalStorage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tombstones come from the checkpoint and from the JSON commits after it. */
class KernelLogReaderIT {

  @TempDir Path dir;

  @Test
  void readsTombstonesFromTheCheckpointAndLaterCommits_latestRemovalWins_andSeesReAdds() throws Exception {
    Path log = Files.createDirectories(dir.resolve("t/_delta_log"));
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
      s.execute("COPY (SELECT * FROM (VALUES"
          + " ({'path': 'a.parquet', 'deletionTimestamp': 1000}, NULL),"
          + " ({'path': 'p%3Dx/b%20c.parquet', 'deletionTimestamp': 2000}, NULL),"
          + " (NULL, {'path': 'live.parquet'})"
          + ") v(remove, \"add\")) TO '" + log.resolve("00000000000000000005.checkpoint.parquet") + "' (FORMAT parquet)");
    }
    Files.writeString(log.resolve("00000000000000000006.json"), String.join("\n",
        "{\"commitInfo\":{\"timestamp\":6000,\"operation\":\"DELETE\"}}",
        "{\"remove\":{\"path\":\"a.parquet\",\"deletionTimestamp\":5000,\"dataChange\":true}}",
        "{\"remove\":{\"path\":\"d.parquet\",\"deletionTimestamp\":1,\"dataChange\":true}}",
        ""));
    Files.writeString(log.resolve("00000000000000000007.json"), String.join("\n",
        "{\"commitInfo\":{\"timestamp\":7000,\"operation\":\"WRITE\"}}",
        "{\"add\":{\"path\":\"d.parquet\",\"partitionValues\":{},\"size\":1,\"modificationTime\":7000,\"dataChange\":true}}",
        ""));

    TableLocation location = new TableLocation("file:" + dir.resolve("t"));
    LogHistory history = new KernelLogReader(new LocalStorage()).read(location);
    Map<String, Tombstone> byName = history.tombstones().stream()
        .collect(Collectors.toMap(t -> t.path().substring(location.uri().length() + 1), Function.identity()));

    assertThat(history.checkpointVersion()).isEqualTo(5);
    assertThat(history.latestVersion()).isEqualTo(7);
    assertThat(history.oldestCommitVersion()).isEqualTo(6);
    assertThat(byName).containsOnlyKeys("a.parquet", "p=x/b c.parquet", "d.parquet");
    assertThat(byName.get("a.parquet").version()).as("the later removal wins").isEqualTo(6);
    assertThat(byName.get("a.parquet").removedAtMillis()).isGreaterThanOrEqualTo(6000);
    assertThat(byName.get("d.parquet").removedAtMillis())
        .as("a skewed deletionTimestamp cannot make a removal look older than its commit").isGreaterThanOrEqualTo(6000);
    assertThat(byName.get("p=x/b c.parquet").removedAtMillis()).isEqualTo(2000);
    assertThat(history.readdedPaths()).containsExactly(location.uri() + "/d.parquet");
  }
}
