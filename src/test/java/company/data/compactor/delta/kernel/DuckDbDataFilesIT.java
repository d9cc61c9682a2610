package company.data.compactor.delta.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.delta.TableWriter.Append;
import company.data.compactor.model.Column;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.PartitionValues;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSchema;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.LocalStorage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link KernelTableWriter} with DuckDB writing the data files: the same appends written by
 * kernel's own Parquet writer and by DuckDB give the same rows, partitions and stats, on values
 * chosen to break a hand-made writer (UTF-8 against UTF-16 order, quotes, NULLs, empty strings,
 * extreme and signed-zero numbers, NaN, dates at the ends of the calendar, partition values with
 * {@code / = % . space}, unicode, empty and NULL).
 */
class DuckDbDataFilesIT {

  @TempDir Path dir;

  private static final ObjectMapper JSON = new ObjectMapper();
  private final LocalStorage storage = new LocalStorage();
  private final KernelDeltaTables tables = new KernelDeltaTables(storage);

  private static final TableSchema SCHEMA =
      new TableSchema(
          List.of(
              new Column("s", "string", true),
              new Column("i", "integer", true),
              new Column("l", "long", true),
              new Column("d", "double", true),
              new Column("b", "boolean", true),
              new Column("dt", "date", true),
              new Column("p", "string", true)),
          List.of("p"));

  /** U+1F600 sorts after U+FFFD in UTF-8 bytes (F0.. > EF..) but before it in UTF-16 units. */
  private static final String EMOJI = "\uD83D\uDE00";

  private static final String REPLACEMENT = "\uFFFD";

  private static List<Append> hostileAppends() {
    List<Append> appends = new ArrayList<>();
    appends.add(
        append(
            "a/b=c%d.e f",
            row(EMOJI, 1, 1L, -0.0, true, LocalDate.of(1, 1, 1)),
            row(
                REPLACEMENT,
                Integer.MIN_VALUE,
                Long.MIN_VALUE,
                0.0,
                false,
                LocalDate.of(9999, 12, 31)),
            row("it's \"quoted\"\nline", Integer.MAX_VALUE, Long.MAX_VALUE, -1.5, null, null),
            row("", null, null, null, true, LocalDate.of(1969, 12, 31))));
    appends.add(
        append(
            "日本",
            row("x".repeat(40) + "z", 7, 7L, Double.MAX_VALUE, true, LocalDate.of(2026, 10, 17)),
            row(
                "x".repeat(40) + "a",
                -7,
                -7L,
                Double.MIN_VALUE,
                true,
                LocalDate.of(2026, 10, 18))));
    appends.add(
        append(
            "",
            row("ends", 3, 3L, Double.NEGATIVE_INFINITY, false, LocalDate.of(2000, 2, 29)),
            row("ends", 4, 4L, Double.POSITIVE_INFINITY, false, LocalDate.of(2000, 3, 1))));
    appends.add(append(null, row(null, null, null, null, null, null)));
    appends.add(
        append("nan", row("n", 1, 1L, Double.NaN, true, null), row("m", 2, 2L, 1.0, true, null)));
    return appends;
  }

  @Test
  void appendAll_withDuckDb_writesTheRowsPartitionsAndStatsKernelsWriterWrites() throws Exception {
    TableLocation byKernel = TableLocation.parse("kernel", dir);
    TableLocation byDuckDb = TableLocation.parse("duckdb", dir);
    List<Append> appends = hostileAppends();

    KernelTableWriter kernel = new KernelTableWriter(storage);
    kernel.create(byKernel, SCHEMA, Map.of());
    kernel.appendAll(byKernel, appends);
    KernelTableWriter duckDb =
        KernelTableWriter.withDuckDbDataFiles(storage, dir.resolve("scratch"));
    duckDb.create(byDuckDb, SCHEMA, Map.of());
    long version = duckDb.appendAll(byDuckDb, appends);

    assertThat(version).isEqualTo(appends.size());
    assertThat(dir.resolve("scratch")).as("its scratch, deleted at the end").isEmptyDirectory();
    List<JsonNode> kernelAdds = adds(byKernel, appends.size());
    List<JsonNode> duckDbAdds = adds(byDuckDb, appends.size());
    for (int i = 0; i < appends.size(); i++) {
      JsonNode expected = kernelAdds.get(i);
      JsonNode actual = duckDbAdds.get(i);
      assertThat(actual.get("partitionValues"))
          .as("append %d", i)
          .isEqualTo(expected.get("partitionValues"));
      assertThat(JSON.readTree(actual.get("stats").asText()))
          .as("stats of append %d", i)
          .isEqualTo(JSON.readTree(expected.get("stats").asText()));
      assertThat(actual.get("dataChange").asBoolean()).isTrue();
      assertThat(createdBy(byDuckDb, actual)).as("append %d", i).startsWith("DuckDB");
      assertThat(createdBy(byKernel, expected)).as("append %d", i).startsWith("parquet-mr");
    }
    assertThat(rowsOf(tables.loadLatest(byDuckDb))).isEqualTo(rowsOf(tables.loadLatest(byKernel)));
    assertThat(rowsOf(tables.loadLatest(byDuckDb))).hasSize(11);
  }

  @Test
  void aTableWhosePathNeedsEscaping_getsItsFilesInside_loggedRelative_inDirectoriesEscapedOnce()
      throws Exception {
    // Kernel hands out the target directory percent-encoded ("with%20space"); the file must
    // still land under the table's real directory and be logged relative to its root.
    // Kernel's own writer puts its files outside such a table, and escapes partition directories
    // twice (not fixed: the seeder writes with DuckDB); it writes the same appends at a plain path,
    // to compare the rows with.
    Path parent = Files.createDirectories(dir.resolve("with space %20 ü"));
    TableLocation byKernel = TableLocation.parse("kernel", dir);
    TableLocation byDuckDb = TableLocation.parse("duckdb", parent);
    List<Append> appends = hostileAppends();
    KernelTableWriter kernel = new KernelTableWriter(storage);
    kernel.create(byKernel, SCHEMA, Map.of());
    kernel.appendAll(byKernel, appends);
    KernelTableWriter duckDb =
        KernelTableWriter.withDuckDbDataFiles(storage, dir.resolve("scratch"));
    duckDb.create(byDuckDb, SCHEMA, Map.of());
    duckDb.appendAll(byDuckDb, appends);

    Path root = LocalStorage.toPath(byDuckDb.uri());
    for (JsonNode add : adds(byDuckDb, appends.size())) {
      String logged = add.get("path").asText();
      assertThat(logged).doesNotContain(":").doesNotStartWith("/");
      assertThat(root.resolve(AheadTables.decode(logged))).as(logged).isRegularFile();
    }
    try (var partitions = Files.list(root)) {
      // Partition directories escaped as Delta (Hive) escapes them, once.
      assertThat(partitions.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder(
              "_delta_log",
              "p=a%2Fb%3Dc%25d.e f",
              "p=日本",
              "p=",
              "p=__HIVE_DEFAULT_PARTITION__",
              "p=nan");
    }
    assertThat(rowsOf(tables.loadLatest(byDuckDb))).isEqualTo(rowsOf(tables.loadLatest(byKernel)));
    try (var entries = Files.list(parent)) {
      assertThat(entries.map(p -> p.getFileName().toString()))
          .as("nothing written beside the table's real directory")
          .containsExactly("duckdb");
    }
    try (var entries = Files.list(dir)) {
      assertThat(entries.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder("with space %20 ü", "kernel", "scratch");
    }
  }

  @Test
  void stats_orderStringsByUtf8Bytes_giveNaNColumnsNoStats_andNullColumnsNullBounds()
      throws Exception {
    TableLocation location = TableLocation.parse("t", dir);
    KernelTableWriter duckDb =
        KernelTableWriter.withDuckDbDataFiles(storage, dir.resolve("scratch"));
    duckDb.create(location, SCHEMA, Map.of());
    List<Append> appends = hostileAppends();
    duckDb.appendAll(location, appends);

    List<JsonNode> adds = adds(location, appends.size());
    JsonNode first = JSON.readTree(adds.get(0).get("stats").asText());
    assertThat(first.get("minValues").get("s").asText()).isEmpty();
    assertThat(first.get("maxValues").get("s").asText()).isEqualTo(EMOJI);
    assertThat(first.get("minValues").get("d").asDouble()).isEqualTo(-1.5);
    assertThat(first.get("nullCount").get("i").asLong()).isEqualTo(1);
    JsonNode nan = JSON.readTree(adds.get(4).get("stats").asText());
    assertThat(nan.get("minValues").has("d")).isFalse();
    assertThat(nan.get("maxValues").has("d")).isFalse();
    assertThat(nan.get("nullCount").has("d")).isFalse();
    JsonNode allNull = JSON.readTree(adds.get(3).get("stats").asText());
    assertThat(allNull.get("minValues").size()).isEqualTo(6);
    allNull.get("minValues").forEach(bound -> assertThat(bound.isNull()).isTrue());
    allNull.get("maxValues").forEach(bound -> assertThat(bound.isNull()).isTrue());
    assertThat(allNull.get("nullCount").get("s").asLong()).isEqualTo(1);
  }

  @Test
  void appendAll_onAColumnMappedTable_isRefusedAsKernelsWriterRefusesIt_andCommitsNothing() {
    TableLocation location = TableLocation.parse("mapped", dir);
    KernelTableWriter duckDb =
        KernelTableWriter.withDuckDbDataFiles(storage, dir.resolve("scratch"));
    duckDb.create(location, SCHEMA, Map.of("delta.columnMapping.mode", "name"));

    assertThatThrownBy(() -> duckDb.appendAll(location, hostileAppends()))
        .hasMessageContaining("column mapping");
    assertThat(tables.loadLatest(location).version()).isZero();
  }

  private static Append append(String partition, List<Object>... rows) {
    Map<String, String> values = new HashMap<>();
    values.put("p", partition);
    List<List<Object>> withPartition = new ArrayList<>();
    for (List<Object> row : rows) {
      List<Object> full = new ArrayList<>(row);
      full.add(partition);
      withPartition.add(full);
    }
    return new Append(new PartitionValues(values), withPartition);
  }

  private static List<Object> row(String s, Integer i, Long l, Double d, Boolean b, LocalDate dt) {
    return Arrays.asList(s, i, l, d, b, dt);
  }

  /** The add action of each commit 1..n. */
  private List<JsonNode> adds(TableLocation location, int commits) throws Exception {
    List<JsonNode> adds = new ArrayList<>();
    Path log = LocalStorage.toPath(location.uri()).resolve("_delta_log");
    for (int v = 1; v <= commits; v++) {
      for (String line : Files.readAllLines(log.resolve("%020d.json".formatted(v)))) {
        JsonNode action = JSON.readTree(line);
        if (action.has("add")) {
          adds.add(action.get("add"));
        }
      }
    }
    assertThat(adds).hasSize(commits);
    return adds;
  }

  private static String createdBy(TableLocation location, JsonNode add) throws Exception {
    String file = resolveFile(location, add.get("path").asText());
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT created_by FROM parquet_file_metadata('"
                    + file.replace("'", "''")
                    + "')")) {
      r.next();
      return r.getString(1);
    }
  }

  private static String resolveFile(TableLocation location, String logged) {
    return Path.of(java.net.URI.create(location.uri() + "/" + logged)).toString();
  }

  /** Every row readers see, as text, with its partition value, sorted. */
  private static List<String> rowsOf(TableSnapshot snapshot) throws Exception {
    List<String> rows = new ArrayList<>();
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement()) {
      for (DataFile file : snapshot.activeFiles()) {
        String path = LocalStorage.toPath(file.path()).toString();
        try (ResultSet r =
            s.executeQuery(
                "SELECT s, i, l, CAST(d AS VARCHAR), b, dt FROM read_parquet('"
                    + path.replace("'", "''")
                    + "', hive_partitioning = false)")) {
          while (r.next()) {
            List<String> values = new ArrayList<>();
            for (int c2 = 1; c2 <= 6; c2++) {
              values.add(String.valueOf(r.getObject(c2)));
            }
            values.add(String.valueOf(file.partition().values().get("p")));
            rows.add(String.join("|", values));
          }
        }
      }
    }
    rows.sort(null);
    return rows;
  }
}
