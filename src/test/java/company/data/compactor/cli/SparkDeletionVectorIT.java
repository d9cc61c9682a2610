package company.data.compactor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.delta.kernel.KernelDeltaTables;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.storage.Storage;
import company.data.compactor.storage.s3.S3Storage;
import company.data.compactor.testing.S3ProxyServer;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * {@code run} on a table Spark left with deletion-vector files after a DELETE ({@code
 * src/test/resources/tables/spark-dv}, written by {@code interop/make_spark_dv_fixture.py}: ids
 * 0..59, {@code part} = id % 2, three files per partition; the DELETE of ids ending in 3 put a
 * vector on each file of {@code part=1}, all three in one {@code deletion_vector_<uuid>.bin} at
 * their offsets). The vectors are read from their file through the storage port, the rows they
 * delete are gone from the outputs, no active file keeps a vector, and each remove names the file
 * with the vector it had.
 */
class SparkDeletionVectorIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path FIXTURE = Paths.get("src/test/resources/tables/spark-dv");

  @TempDir Path work;
  private Path table;

  @BeforeEach
  void copyFixture() throws Exception {
    table = work.resolve("spark-dv");
    try (Stream<Path> files = Files.walk(FIXTURE)) {
      for (Path source : files.toList()) {
        Path target = table.resolve(FIXTURE.relativize(source).toString());
        if (Files.isDirectory(source)) {
          Files.createDirectories(target);
        } else {
          Files.copy(source, target);
        }
      }
    }
  }

  private record Result(int code, String out, String err) {}

  private Result cli(String... args) {
    return cli(Map.of(), args);
  }

  private Result cli(Map<String, String> env, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true), env);
    return new Result(code, out.toString(), err.toString());
  }

  /**
   * id to (name, part) of the rows readers see in {@code files} (none may have a deletion vector),
   * part from each add action; each file copied out of {@code storage} first.
   */
  private Map<Long, List<Object>> rows(Storage storage, List<DataFile> files) throws Exception {
    Map<Long, List<Object>> rows = new TreeMap<>();
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement()) {
      for (DataFile file : files) {
        Path copy = Files.createTempFile(work, "check-", ".parquet");
        try (InputStream in = storage.openFrom(file.path(), 0)) {
          Files.copy(in, copy, StandardCopyOption.REPLACE_EXISTING);
        }
        try (ResultSet rs =
            s.executeQuery(
                "SELECT id, name FROM read_parquet('" + copy + "', hive_partitioning = false)")) {
          while (rs.next()) {
            rows.put(
                rs.getLong(1), List.of(rs.getString(2), file.partition().values().get("part")));
          }
        }
      }
    }
    return rows;
  }

  private static Map<Long, List<Object>> expected() {
    Map<Long, List<Object>> rows = new TreeMap<>();
    LongStream.range(0, 60)
        .filter(id -> id % 10 != 3)
        .forEach(id -> rows.put(id, List.of("n-" + id, Long.toString(id % 2))));
    return rows;
  }

  @Test
  void inspect_countsTheRowsSparkCounts() throws Exception {
    Result inspect =
        cli("inspect", "--work-dir", work.toString(), "--table-uri", table.toString(), "--json");

    assertThat(inspect.code()).as(inspect.err()).isZero();
    JsonNode report = JSON.readTree(inspect.out());
    assertThat(report.get("total_rows").asLong()).as("Spark's count(*)").isEqualTo(54);
    assertThat(report.get("deleted_rows").asLong()).isEqualTo(6);
    assertThat(report.get("deleted_rows_ratio").asDouble()).isEqualTo(0.1);
  }

  @Test
  void run_dropsTheRowsTheVectorFilesDelete_andLeavesNoVector() throws Exception {
    TableLocation location = TableLocation.parse(table.toString(), work);
    List<JsonNode> vectorsBefore = new ArrayList<>();
    for (String line : Files.readAllLines(table.resolve("_delta_log/00000000000000000003.json"))) {
      JsonNode action = JSON.readTree(line);
      if (action.has("add")) {
        vectorsBefore.add(action.get("add"));
      }
    }
    assertThat(vectorsBefore).hasSize(3).allMatch(a -> a.has("deletionVector"));

    Result run =
        cli(
            "run",
            "--work-dir",
            work.toString(),
            "--demo-mode",
            "false",
            "--table-uri",
            table.toString(),
            "--z-order-columns",
            "",
            "--json");

    assertThat(run.code()).as(run.err()).isZero();
    JsonNode report = JSON.readTree(run.out());
    assertThat(report.get("compaction_plan").get("deletion_vectors_to_purge").asInt()).isEqualTo(3);
    assertThat(report.get("files_removed").asInt()).isEqualTo(6);
    assertThat(report.get("files_added").asInt()).isEqualTo(2);
    assertThat(report.get("rows_rewritten").asLong()).isEqualTo(54);
    TableSnapshot after = new KernelDeltaTables(new LocalStorage()).loadLatest(location);
    assertThat(after.activeFiles()).hasSize(2).noneMatch(DataFile::hasDeletionVector);
    assertThat(rows(new LocalStorage(), after.activeFiles())).isEqualTo(expected());
    Map<String, JsonNode> removed = new TreeMap<>();
    for (long version = 4; version <= after.version(); version++) {
      for (String line :
          Files.readAllLines(table.resolve("_delta_log/%020d.json".formatted(version)))) {
        JsonNode action = JSON.readTree(line);
        if (action.has("remove")) {
          removed.put(action.get("remove").get("path").asText(), action.get("remove"));
        }
      }
    }
    assertThat(removed).hasSize(6);
    for (JsonNode add : vectorsBefore) {
      assertThat(removed.get(add.get("path").asText()).get("deletionVector"))
          .as("the remove of %s names its vector", add.get("path"))
          .isEqualTo(add.get("deletionVector"));
    }
  }

  @Test
  void zOrderRun_dropsTheDeletedRowsToo() throws Exception {
    Result run =
        cli(
            "run",
            "--work-dir",
            work.toString(),
            "--demo-mode",
            "false",
            "--table-uri",
            table.toString(),
            "--z-order-columns",
            "id",
            "--json");

    assertThat(run.code()).as(run.err()).isZero();
    TableSnapshot after =
        new KernelDeltaTables(new LocalStorage())
            .loadLatest(TableLocation.parse(table.toString(), work));
    assertThat(after.activeFiles()).hasSize(2).noneMatch(DataFile::hasDeletionVector);
    assertThat(after.activeFiles()).allMatch(f -> f.zOrderedBy().equals(List.of("id")));
    assertThat(rows(new LocalStorage(), after.activeFiles())).isEqualTo(expected());
  }

  /** On S3 the vector file is read through the S3 storage adapter, at each vector's offset. */
  @Test
  void runOnS3_readsTheVectorFileThroughS3() throws Exception {
    S3ProxyServer server = S3ProxyServer.shared();
    String bucket = server.newBucket();
    String uri = "s3://" + bucket + "/tables/spark-dv";
    try (S3Client client = server.client();
        Stream<Path> files = Files.walk(table)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        client.putObject(
            b -> b.bucket(bucket).key("tables/spark-dv/" + table.relativize(file)),
            RequestBody.fromFile(file));
      }
    }

    Result run =
        cli(
            server.environment(),
            "run",
            "--work-dir",
            work.toString(),
            "--demo-mode",
            "false",
            "--table-uri",
            uri,
            "--z-order-columns",
            "",
            "--json");

    assertThat(run.code()).as(run.err()).isZero();
    assertThat(JSON.readTree(run.out()).get("rows_rewritten").asLong()).isEqualTo(54);
    try (S3Client client = server.client()) {
      S3Storage storage = new S3Storage(client, work.resolve("uploads"));
      TableSnapshot after =
          new KernelDeltaTables(storage).loadLatest(TableLocation.parse(uri, work));
      assertThat(after.activeFiles()).hasSize(2).noneMatch(DataFile::hasDeletionVector);
      assertThat(rows(storage, after.activeFiles())).isEqualTo(expected());
    }
  }

  private Result runLocal() {
    return cli(
        "run",
        "--work-dir",
        work.toString(),
        "--demo-mode",
        "false",
        "--table-uri",
        table.toString(),
        "--z-order-columns",
        "",
        "--json");
  }

  /** Files of the table and its log, to prove a failed run wrote nothing. */
  private List<String> listing() throws Exception {
    try (Stream<Path> files = Files.walk(table)) {
      return files
          .filter(Files::isRegularFile)
          .map(p -> table.relativize(p).toString())
          .sorted()
          .toList();
    }
  }

  @Test
  void run_failsNamingTheFile_whenAVectorFileIsMissing_andWritesNothingForItsPartition()
      throws Exception {
    Path vectorFile;
    try (Stream<Path> files = Files.list(table)) {
      vectorFile =
          files
              .filter(p -> p.getFileName().toString().startsWith("deletion_vector_"))
              .findFirst()
              .orElseThrow();
    }
    Files.delete(vectorFile);

    Result run = runLocal();

    assertThat(run.code()).isNotZero();
    assertThat(run.err())
        .contains("Failed while loading the deletion vector of part=1/")
        .contains(vectorFile.getFileName().toString().substring(0, 16));
    assertThat(listing()).noneMatch(f -> f.startsWith("part=1/") && f.contains(".zstd."));
    TableSnapshot after =
        new KernelDeltaTables(new LocalStorage())
            .loadLatest(TableLocation.parse(table.toString(), work));
    assertThat(after.activeFiles())
        .filteredOn(f -> f.partition().values().get("part").equals("1"))
        .hasSize(3)
        .allMatch(DataFile::hasDeletionVector);
  }

  @Test
  void run_failsNamingTheFile_whenAVectorDeletesOtherRowsThanTheLogSays() throws Exception {
    Path log = table.resolve("_delta_log/00000000000000000003.json");
    String text = Files.readString(log);
    String changed = text.replaceFirst("\"cardinality\":2", "\"cardinality\":3");
    assertThat(changed).isNotEqualTo(text);
    Files.writeString(log, changed);
    Files.deleteIfExists(table.resolve("_delta_log/00000000000000000003.crc"));

    Result run = runLocal();

    assertThat(run.code()).isNotZero();
    assertThat(run.err())
        .contains("Failed while loading the deletion vector of part=1/")
        .contains("it deletes 2 rows but the log says 3");
  }
}
