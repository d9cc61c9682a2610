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
  void readsTombstonesFromTheCheckpointAndLaterCommits_latestRemovalWins_andSeesReAdds()
      throws Exception {
    Path log = Files.createDirectories(dir.resolve("t/_delta_log"));
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement()) {
      s.execute(
          "COPY (SELECT * FROM (VALUES"
              + " ({'path': 'a.parquet', 'deletionTimestamp': 1000}, NULL),"
              + " ({'path': 'p%3Dx/b%20c.parquet', 'deletionTimestamp': 2000}, NULL),"
              + " (NULL, {'path': 'live.parquet'})"
              + ") v(remove, \"add\")) TO '"
              + log.resolve("00000000000000000005.checkpoint.parquet")
              + "' (FORMAT parquet)");
    }
    Files.writeString(
        log.resolve("00000000000000000006.json"),
        String.join(
            "\n",
            "{\"commitInfo\":{\"timestamp\":6000,\"operation\":\"DELETE\"}}",
            "{\"remove\":{\"path\":\"a.parquet\",\"deletionTimestamp\":5000,\"dataChange\":true}}",
            "{\"remove\":{\"path\":\"d.parquet\",\"deletionTimestamp\":1,\"dataChange\":true}}",
            ""));
    Files.writeString(
        log.resolve("00000000000000000007.json"),
        String.join(
            "\n",
            "{\"commitInfo\":{\"timestamp\":7000,\"operation\":\"WRITE\"}}",
            "{\"add\":{\"path\":\"d.parquet\",\"partitionValues\":{},\"size\":1,\"modificationTime\":7000,\"dataChange\":true}}",
            ""));

    TableLocation location = new TableLocation("file:" + dir.resolve("t"));
    LogHistory history = new KernelLogReader(new LocalStorage()).read(location);
    Map<String, Tombstone> byName =
        history.tombstones().stream()
            .collect(
                Collectors.toMap(
                    t -> t.path().substring(location.uri().length() + 1), Function.identity()));

    assertThat(history.checkpointVersion()).isEqualTo(5);
    assertThat(history.latestVersion()).isEqualTo(7);
    assertThat(history.oldestCommitVersion()).isEqualTo(6);
    assertThat(byName).containsOnlyKeys("a.parquet", "p=x/b c.parquet", "d.parquet");
    assertThat(byName.get("a.parquet").version()).as("the later removal wins").isEqualTo(6);
    assertThat(byName.get("a.parquet").removedAtMillis()).isGreaterThanOrEqualTo(6000);
    assertThat(byName.get("d.parquet").removedAtMillis())
        .as("a skewed deletionTimestamp cannot make a removal look older than its commit")
        .isGreaterThanOrEqualTo(6000);
    assertThat(byName.get("p=x/b c.parquet").removedAtMillis()).isEqualTo(2000);
    assertThat(history.readdedPaths()).containsExactly(location.uri() + "/d.parquet");
  }

  @Test
  void commitsOfVeryDifferentSizes_readBiggestFirst_mergeInVersionOrder_asOneAfterAnother()
      throws Exception {
    Path log = Files.createDirectories(dir.resolve("sizes/_delta_log"));
    // Version 1 is big (it is parsed first), the small ones around it must still come before and
    // after it: x is added at 0, removed at 1, added again at 3; y is removed at 1 and at 2.
    StringBuilder big = new StringBuilder("{\"commitInfo\":{\"timestamp\":1000}}\r\n\n");
    for (int i = 0; i < 5_000; i++) {
      big.append("{\"add\":{\"path\":\"f/")
          .append(i)
          .append(".parquet\",\"partitionValues\":{},\"size\":1,\"dataChange\":true}}\n");
    }
    big.append("{\"remove\":{\"path\":\"x.parquet\",\"deletionTimestamp\":900}}\n");
    big.append("{\"remove\":{\"path\":\"y.parquet\",\"deletionTimestamp\":900}}\n");
    Files.writeString(
        log.resolve("00000000000000000000.json"),
        "{\"commitInfo\":{\"timestamp\":500}}\n{\"add\":{\"path\":\"x.parquet\"}}\n");
    Files.writeString(log.resolve("00000000000000000001.json"), big);
    Files.writeString(
        log.resolve("00000000000000000002.json"),
        "{\"commitInfo\":{\"timestamp\":2000}}\n"
            + "{\"add\":{\"path\":\"y.parquet\"}}\n{\"remove\":{\"path\":\"y.parquet\",\"deletionTimestamp\":1}}\n");
    Files.writeString(
        log.resolve("00000000000000000003.json"),
        "{\"commitInfo\":{\"timestamp\":3000}}\n{\"add\":{\"path\":\"x.parquet\"}}");
    for (int v = 4; v < 40; v++) {
      Files.writeString(
          log.resolve(String.format("%020d.json", v)),
          "{\"commitInfo\":{\"timestamp\":" + (v * 1000) + "}}\n");
    }
    TableLocation location = new TableLocation("file:" + dir.resolve("sizes"));

    LogHistory together = new KernelLogReader(new LocalStorage(), 16).read(location);
    LogHistory oneByOne = new KernelLogReader(new LocalStorage(), 1).read(location);

    assertThat(together).isEqualTo(oneByOne);
    Map<String, Tombstone> byName =
        together.tombstones().stream()
            .collect(
                Collectors.toMap(
                    t -> t.path().substring(location.uri().length() + 1), Function.identity()));
    assertThat(byName).containsOnlyKeys("x.parquet", "y.parquet");
    assertThat(byName.get("y.parquet").version()).as("the later removal wins").isEqualTo(2);
    assertThat(byName.get("x.parquet").version()).isEqualTo(1);
    assertThat(together.readdedPaths()).containsExactly(location.uri() + "/x.parquet");
  }

  @Test
  void streamsOnlyTheFieldsItNeeds_whereverTheyStand_andIgnoresLookAlikesInsideOtherValues()
      throws Exception {
    Path log = Files.createDirectories(dir.resolve("s/_delta_log"));
    Path commit =
        Files.writeString(
            log.resolve("00000000000000000000.json"),
            String.join(
                "\n",
                "{\"protocol\":{\"minReaderVersion\":3,\"minWriterVersion\":7,\"readerFeatures\":[\"x\"],\"writerFeatures\":[\"inCommitTimestamp\"]}}",
                "{\"metaData\":{\"id\":\"m\",\"format\":{\"provider\":\"parquet\",\"options\":{\"path\":\"not-a-file\"}},"
                    + "\"schemaString\":\"{\\\"remove\\\":{\\\"path\\\":\\\"fake\\\"}}\",\"partitionColumns\":[]}}",
                "{\"remove\":{\"dataChange\":false,\"tags\":{\"path\":\"not-this\"},\"path\":\"gone.parquet\",\"deletionTimestamp\":123}}",
                "{\"add\":{\"partitionValues\":{\"path\":\"nor-this\"},\"stats\":\"{\\\"path\\\":\\\"x\\\"}\",\"path\":\"new.parquet\",\"size\":1}}",
                "{\"txn\":{\"appId\":\"a\",\"version\":1}}",
                "{\"commitInfo\":{\"timestamp\":9000,\"inCommitTimestamp\":5000,\"operationParameters\":{\"timestamp\":99999}}}",
                ""));
    Files.setLastModifiedTime(commit, java.nio.file.attribute.FileTime.fromMillis(1));

    TableLocation location = new TableLocation("file:" + dir.resolve("s"));
    LogHistory history = new KernelLogReader(new LocalStorage()).read(location);

    assertThat(history.tombstones())
        .singleElement()
        .satisfies(
            t -> {
              assertThat(t.path()).isEqualTo(location.uri() + "/gone.parquet");
              // The in-commit timestamp (written after the remove) wins over the wall-clock one and
              // the
              // nested operationParameters.timestamp; it is later than the remove's own 123.
              assertThat(t.removedAtMillis()).isEqualTo(5000);
              assertThat(t.version()).isZero();
            });
    assertThat(history.oldestCommitMillis()).isEqualTo(5000);
    assertThat(history.readdedPaths()).isEmpty();
  }

  @Test
  void neverYieldsATombstoneOrReAddOutsideTheTableRoot_howeverTheLogSpellsIt() throws Exception {
    Path log = Files.createDirectories(dir.resolve("t/_delta_log"));
    String root = "file:" + dir.resolve("t");
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement()) {
      s.execute(
          "COPY (SELECT * FROM (VALUES"
              + " ({'path': '../from-checkpoint.parquet', 'deletionTimestamp': 1000}, NULL),"
              + " ({'path': 'kept-from-checkpoint.parquet', 'deletionTimestamp': 1000}, NULL)"
              + ") v(remove, \"add\")) TO '"
              + log.resolve("00000000000000000001.checkpoint.parquet")
              + "' (FORMAT parquet)");
    }
    Files.writeString(
        log.resolve("00000000000000000002.json"),
        String.join(
            "\n",
            "{\"commitInfo\":{\"timestamp\":6000,\"operation\":\"DELETE\"}}",
            remove("../sibling/x.parquet"),
            remove("p=1/../../sibling/y.parquet"),
            remove("%2e%2e/encoded.parquet"),
            remove("file:" + dir.resolve("elsewhere/z.parquet")),
            remove(root + "/../sibling/abs.parquet"),
            remove("s3://other-bucket/t/w.parquet"),
            remove("file://host" + dir.resolve("t/hosted.parquet")),
            remove("inside.parquet"),
            remove(root + "/absolute-inside.parquet"),
            ""));
    Files.writeString(
        log.resolve("00000000000000000003.json"),
        String.join(
            "\n",
            "{\"commitInfo\":{\"timestamp\":7000,\"operation\":\"WRITE\"}}",
            "{\"add\":{\"path\":\"../sibling/x.parquet\",\"partitionValues\":{},\"size\":1,\"modificationTime\":7000,\"dataChange\":true}}",
            ""));

    TableLocation location = new TableLocation(root);
    LogHistory history = new KernelLogReader(new LocalStorage()).read(location);

    assertThat(history.tombstones())
        .extracting(Tombstone::path)
        .containsExactlyInAnyOrder(
            root + "/kept-from-checkpoint.parquet",
            root + "/inside.parquet",
            root + "/absolute-inside.parquet");
    assertThat(history.readdedPaths()).isEmpty();
  }

  @Test
  void tombstonesAndReAdds_comeOutInTheListingsSpelling_howeverTheLogCasesTheScheme()
      throws Exception {
    Path log = Files.createDirectories(dir.resolve("t/_delta_log"));
    String root = "file:" + dir.resolve("t");
    Files.writeString(
        log.resolve("00000000000000000000.json"),
        String.join(
            "\n",
            "{\"commitInfo\":{\"timestamp\":6000,\"operation\":\"DELETE\"}}",
            remove("FILE:" + dir.resolve("t/upper.parquet")),
            remove("file://" + dir.resolve("t/triple.parquet")),
            remove("readded.parquet"),
            ""));
    Files.writeString(
        log.resolve("00000000000000000001.json"),
        String.join(
            "\n",
            "{\"commitInfo\":{\"timestamp\":7000,\"operation\":\"WRITE\"}}",
            "{\"add\":{\"path\":\"FILE:"
                + dir.resolve("t/readded.parquet")
                + "\",\"partitionValues\":{},\"size\":1,\"modificationTime\":7000,\"dataChange\":true}}",
            ""));

    LogHistory history = new KernelLogReader(new LocalStorage()).read(new TableLocation(root));

    assertThat(history.tombstones())
        .extracting(Tombstone::path)
        .containsExactlyInAnyOrder(
            root + "/upper.parquet", root + "/triple.parquet", root + "/readded.parquet");
    assertThat(history.readdedPaths()).containsExactly(root + "/readded.parquet");
  }

  private static String remove(String path) {
    return "{\"remove\":{\"path\":\""
        + path
        + "\",\"deletionTimestamp\":5000,\"dataChange\":true}}";
  }
}
