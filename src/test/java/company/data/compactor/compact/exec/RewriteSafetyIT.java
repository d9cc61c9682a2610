package company.data.compactor.compact.exec;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.compact.CompactionOptions;
import company.data.compactor.compact.CompactionPlanner;
import company.data.compactor.compact.CompactionResult;
import company.data.compactor.compact.Layout;
import company.data.compactor.compact.PartitionFilter;
import company.data.compactor.compact.PartitionResult;
import company.data.compactor.delta.kernel.KernelDeletionVectorLoader;
import company.data.compactor.delta.kernel.KernelDeltaTables;
import company.data.compactor.delta.kernel.KernelRewriteCommitter;
import company.data.compactor.delta.kernel.TypedTables;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.testing.DuckDb;
import io.delta.kernel.types.ArrayType;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.MapType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rewrites that must never move, merge or blank data: partitions whose labels read alike, columns
 * spelt in another case, ambiguous files, nested statistics, and where outputs are written.
 */
class RewriteSafetyIT {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  private final LocalStorage storage = new LocalStorage();
  private final KernelDeltaTables tables = new KernelDeltaTables(storage);

  @Test
  void partitionsWhoseLabelsReadAlike_keepTheirOwnRows() throws Exception {
    TableLocation location = TableLocation.parse("collide", dir);
    StructType schema =
        new StructType()
            .add("id", LongType.LONG)
            .add("a", StringType.STRING)
            .add("b", StringType.STRING);
    TypedTables typed = new TypedTables();
    typed.create(location, schema, List.of("a", "b"), Map.of());
    Map<String, String> first = partition("a", "x/b=y", "b", "z");
    Map<String, String> second = partition("a", "x", "b", "y/b=z");
    for (int i = 0; i < 3; i++) {
      typed.append(
          location,
          first,
          "SELECT range AS id FROM range(" + (i * 2) + ", " + (i * 2 + 2) + ")",
          "first-" + i);
      typed.append(
          location,
          second,
          "SELECT range AS id FROM range(" + (100 + i * 2) + ", " + (100 + i * 2 + 2) + ")",
          "second-" + i);
    }
    TableSnapshot before = tables.loadLatest(location);
    Map<String, String> rowsBefore = idsByPartition(before);

    CompactionResult result = execute(before, Layout.BIN_PACK, List.of());

    TableSnapshot after = tables.loadLatest(location);
    assertThat(result.partitions())
        .hasSize(2)
        .allSatisfy(p -> assertThat(p.status()).isEqualTo(PartitionResult.Status.COMMITTED));
    assertThat(after.activeFiles()).hasSize(2);
    assertThat(idsByPartition(after))
        .isEqualTo(rowsBefore)
        .containsEntry("{a=x/b=y, b=z}", "[0, 1, 2, 3, 4, 5]")
        .containsEntry("{a=x, b=y/b=z}", "[100, 101, 102, 103, 104, 105]");
  }

  @Test
  void outputs_areWrittenUnderTheRoot_inTheDirectoryTheirPartitionValuesName() throws Exception {
    TableLocation location = TableLocation.parse("odd", dir);
    StructType schema = new StructType().add("id", LongType.LONG).add("p", StringType.STRING);
    TypedTables typed = new TypedTables();
    typed.create(location, schema, List.of("p"), Map.of());
    Map<String, String> odd = partition("p", "a/b=c%d e:ü");
    Map<String, String> none = partition("p", null);
    for (int i = 0; i < 2; i++) {
      typed.append(
          location,
          odd,
          "SELECT range AS id FROM range(" + (i * 2) + ", " + (i * 2 + 2) + ")",
          "odd-" + i);
      typed.append(
          location,
          none,
          "SELECT range AS id FROM range(" + (50 + i) + ", " + (51 + i) + ")",
          "null-" + i);
    }
    TableSnapshot before = tables.loadLatest(location);

    execute(before, Layout.BIN_PACK, List.of());

    TableSnapshot after = tables.loadLatest(location);
    assertThat(after.activeFiles()).hasSize(2);
    Map<String, String> dirs = new TreeMap<>();
    for (DataFile file : after.activeFiles()) {
      assertThat(file.path()).startsWith(location.uri() + "/");
      String relative = file.path().substring(location.uri().length() + 1);
      dirs.put(
          String.valueOf(file.partition().values().get("p")),
          relative.substring(0, relative.lastIndexOf('/')));
      assertThat(Files.exists(LocalStorage.toPath(file.path()))).isTrue();
    }
    assertThat(dirs)
        .containsEntry("a/b=c%d e:ü", "p=a%2Fb%3Dc%25d e%3Aü")
        .containsEntry("null", "p=__HIVE_DEFAULT_PARTITION__");
    assertThat(idsByPartition(after)).isEqualTo(idsByPartition(before));
  }

  @Test
  void columnSpeltInAnotherCase_keepsEveryValue() throws Exception {
    TableLocation location = TableLocation.parse("spelling", dir);
    StructType schema =
        new StructType()
            .add("id", LongType.LONG)
            .add("UPPER", StringType.STRING)
            .add("p", StringType.STRING);
    TypedTables typed = new TypedTables();
    typed.create(location, schema, "p");
    // As Spark reads it (case-insensitively), every file holds UPPER; the first two spell it
    // lower-case.
    typed.append(
        location, "p", "a", "SELECT range AS id, 'v' || range AS upper FROM range(0, 10)", "in-0");
    typed.append(
        location, "p", "a", "SELECT range AS id, 'v' || range AS Upper FROM range(10, 20)", "in-1");
    typed.append(
        location,
        "p",
        "a",
        "SELECT range AS id, 'v' || range AS \"UPPER\" FROM range(20, 30)",
        "in-2");
    TableSnapshot before = tables.loadLatest(location);

    CompactionResult result = execute(before, Layout.BIN_PACK, List.of());

    assertThat(result.partitions())
        .singleElement()
        .satisfies(p -> assertThat(p.status()).isEqualTo(PartitionResult.Status.COMMITTED));
    TableSnapshot after = tables.loadLatest(location);
    assertThat(after.activeFiles()).hasSize(1);
    assertThat(
            query(
                after.activeFiles(),
                "SELECT count(*) || ':' || count(\"UPPER\") || ':' || min(\"UPPER\") || ':' || max(\"UPPER\")"))
        .isEqualTo("30:30:v0:v9");
  }

  @Test
  void fileWithTwoColumnsMatchingOneName_isRefused_andNothingIsWritten() throws Exception {
    TableLocation location = TableLocation.parse("ambiguous", dir);
    StructType schema =
        new StructType()
            .add("id", LongType.LONG)
            .add("dupcol", StringType.STRING)
            .add("p", StringType.STRING);
    TypedTables typed = new TypedTables();
    typed.create(location, schema, "p");
    typed.append(location, "p", "a", "SELECT range AS id, 'x' AS dupcol FROM range(0, 5)", "in-0");
    typed.append(
        location,
        "p",
        "a",
        "SELECT range AS id, 'y' AS dupcol, 'z' AS \"DUPCOX\" FROM range(5, 10)",
        "in-1");
    // DuckDB renames a duplicate on write, so the second spelling is patched into the footer.
    Path ambiguous = location.localPath().resolve("p=a/in-1.parquet");
    byte[] bytes = Files.readAllBytes(ambiguous);
    Files.write(
        ambiguous,
        new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1)
            .replace("DUPCOX", "DUPCOL")
            .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
    TableSnapshot before = tables.loadLatest(location);
    List<String> filesBefore = listing(location.localPath());

    CompactionResult result = execute(before, Layout.BIN_PACK, List.of());

    assertThat(result.partitions())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.status()).isEqualTo(PartitionResult.Status.VERIFICATION_FAILED);
              assertThat(p.detail())
                  .contains("in-1.parquet")
                  .contains("2 columns match dupcol (dupcol, DUPCOL)")
                  .endsWith("nothing was committed");
            });
    assertThat(tables.loadLatest(location).version()).isEqualTo(before.version());
    assertThat(listing(location.localPath())).isEqualTo(filesBefore);
  }

  /**
   * Files whose column a cast would silently change: both sides of verification would go through
   * the same cast, so the rewrite is refused instead.
   */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.CsvSource(
      delimiter = '|',
      value = {
        "string|encode('héllo')|BLOB: binary without a UTF8 annotation",
        "decimal(10,2)|CAST(1.2345 AS DECIMAL(10,4))|DECIMAL(10,4): a decimal of another scale",
        "timestamp|CAST(TIMESTAMP '2026-01-01 00:00:00.123456789' AS TIMESTAMP_NS)|TIMESTAMP_NS: nanoseconds"
      })
  void aColumnStoredInAFormACastWouldChange_isRefused_andNothingIsWritten(
      String type, String value, String reason) throws Exception {
    TableLocation location = TableLocation.parse("lossy", dir);
    io.delta.kernel.types.DataType deltaType =
        switch (type) {
          case "string" -> StringType.STRING;
          case "timestamp" -> io.delta.kernel.types.TimestampType.TIMESTAMP;
          default -> new io.delta.kernel.types.DecimalType(10, 2);
        };
    StructType schema =
        new StructType().add("id", LongType.LONG).add("v", deltaType).add("p", StringType.STRING);
    TypedTables typed = new TypedTables();
    typed.create(location, schema, "p");
    typed.append(
        location, "p", "a", "SELECT range AS id, " + value + " AS v FROM range(0, 3)", "in-0");
    typed.append(
        location, "p", "a", "SELECT range AS id, " + value + " AS v FROM range(3, 6)", "in-1");
    TableSnapshot before = tables.loadLatest(location);
    List<String> filesBefore = listing(location.localPath());

    CompactionResult result = execute(before, Layout.BIN_PACK, List.of());

    assertThat(result.partitions())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.status()).isEqualTo(PartitionResult.Status.VERIFICATION_FAILED);
              assertThat(p.detail())
                  .startsWith("file in-0.parquet stores column v (" + type + ") as " + reason)
                  .endsWith("nothing was committed");
            });
    assertThat(tables.loadLatest(location).version()).isEqualTo(before.version());
    assertThat(listing(location.localPath())).isEqualTo(filesBefore);
  }

  /**
   * Files Spark wrote in its legacy hybrid calendar: DuckDB reads the stored days, Spark rebases
   * them, so rewriting an early date would move it while both sides of verification agree.
   */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "date|DATE '1500-03-01' + CAST(range AS INTEGER)|'org.apache.spark.version': '3.5.1', 'org.apache.spark.legacyDateTime': ''"
            + "|(Spark wrote it in LEGACY rebase mode (org.apache.spark.legacyDateTime)) and 3 value(s) of v before 1582-10-15",
        "date|DATE '1000-01-01' + CAST(range AS INTEGER)|'org.apache.spark.version': '2.4.8'"
            + "|(Spark 2.4.8 wrote it (before 3.0 Spark wrote the hybrid calendar)) and 3 value(s) of v before 1582-10-15",
        "timestamp|TIMESTAMP '1899-12-31 20:00:00' + INTERVAL (range) HOUR|'org.apache.spark.version': '3.3.0', 'org.apache.spark.legacyINT96': ''"
            + "|(Spark wrote it in LEGACY rebase mode (org.apache.spark.legacyINT96)) and 3 value(s) of v before 1900-01-01 00:00:00"
      })
  void earlyDatetimesInSparksLegacyCalendar_areRefused_andNothingIsWritten(
      String type, String value, String keys, String reason) throws Exception {
    TableLocation location = TableLocation.parse("legacy", dir);
    StructType schema =
        new StructType()
            .add("id", LongType.LONG)
            .add(
                "v",
                type.equals("date")
                    ? io.delta.kernel.types.DateType.DATE
                    : io.delta.kernel.types.TimestampType.TIMESTAMP)
            .add("p", StringType.STRING);
    TypedTables typed = new TypedTables();
    typed.create(location, schema, "p");
    for (int i = 0; i < 2; i++) {
      typed.appendWithCopyOptions(
          location,
          "p",
          "a",
          "SELECT range AS id, " + value + " AS v FROM range(" + (i * 3) + ", " + (i * 3 + 3) + ")",
          "in-" + i,
          "KV_METADATA {" + keys + "}");
    }
    TableSnapshot before = tables.loadLatest(location);
    List<String> filesBefore = listing(location.localPath());

    CompactionResult result = execute(before, Layout.BIN_PACK, List.of());

    assertThat(result.partitions())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.status()).isEqualTo(PartitionResult.Status.VERIFICATION_FAILED);
              assertThat(p.detail())
                  .startsWith(
                      "file in-0.parquet keeps dates and timestamps in Spark's legacy hybrid calendar "
                          + reason
                          + "; a rewrite would shift those values by days.")
                  .endsWith("nothing was committed");
            });
    assertThat(tables.loadLatest(location).version()).isEqualTo(before.version());
    assertThat(listing(location.localPath())).isEqualTo(filesBefore);
  }

  @Test
  void modernDatetimesInSparksLegacyCalendar_readAlike_andAreCompacted() throws Exception {
    TableLocation location = TableLocation.parse("legacy-modern", dir);
    StructType schema =
        new StructType()
            .add("id", LongType.LONG)
            .add("v", io.delta.kernel.types.DateType.DATE)
            .add("p", StringType.STRING);
    TypedTables typed = new TypedTables();
    typed.create(location, schema, "p");
    for (int i = 0; i < 2; i++) {
      typed.appendWithCopyOptions(
          location,
          "p",
          "a",
          "SELECT range AS id, DATE '1582-10-15' + CAST(range AS INTEGER) AS v FROM range("
              + (i * 3)
              + ", "
              + (i * 3 + 3)
              + ")",
          "in-" + i,
          "KV_METADATA {'org.apache.spark.version': '2.4.8'}");
    }
    TableSnapshot before = tables.loadLatest(location);

    CompactionResult result = execute(before, Layout.BIN_PACK, List.of());

    assertThat(result.partitions())
        .extracting(PartitionResult::status)
        .containsExactly(PartitionResult.Status.COMMITTED);
    assertThat(tables.loadLatest(location).activeFiles()).hasSize(1);
  }

  @Test
  void partitionValuesTooLongForADirectoryName_areWrittenAtTheRoot_andEveryPartitionCompacts()
      throws Exception {
    TableLocation location = TableLocation.parse("long-values", dir);
    StructType schema = new StructType().add("id", LongType.LONG).add("p", StringType.STRING);
    TypedTables typed = new TypedTables();
    typed.create(location, schema, "p");
    List<String> values = List.of("a".repeat(300), "日".repeat(90), "ok");
    int file = 0;
    for (String value : values) {
      for (int i = 0; i < 2; i++, file++) {
        typed.append(
            location,
            Map.of("p", value),
            "SELECT range AS id FROM range(" + (file * 5) + ", " + (file * 5 + 5) + ")",
            "in-" + file);
      }
    }
    TableSnapshot before = tables.loadLatest(location);
    String expected = DuckDb.checksum(before.activeFiles(), List.of("id"));

    CompactionResult result = execute(before, Layout.BIN_PACK, List.of());
    TableSnapshot after = tables.loadLatest(location);

    assertThat(result.partitions())
        .extracting(PartitionResult::status)
        .containsOnly(PartitionResult.Status.COMMITTED)
        .hasSize(3);
    assertThat(after.activeFiles()).hasSize(3);
    assertThat(DuckDb.checksum(after.activeFiles(), List.of("id"))).isEqualTo(expected);
    Map<String, String> directories = new java.util.TreeMap<>();
    for (DataFile written : after.activeFiles()) {
      String value = written.partition().values().get("p");
      String logPath = written.logPath();
      directories.put(
          value.length() > 10 ? value.substring(0, 3) + "..." : value,
          logPath.contains("/") ? logPath.substring(0, logPath.lastIndexOf('/')) : "(root)");
    }
    assertThat(directories)
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("aaa...", "(root)", "日日日...", "(root)", "ok", "p=ok"));
  }

  /**
   * A data column named like DuckDB's {@code rowid} pseudo-column hides it; Z-order slicing by
   * {@code rowid} then read the user's values and wrote the wrong rows (verification refused).
   */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"rowid", "RowId", "row_id"})
  void aColumnNamedRowid_zOrdersIntoSeveralFiles_withEveryRowOnce(String name) throws Exception {
    TableLocation location = TableLocation.parse("rowid-" + name, dir);
    StructType schema =
        new StructType()
            .add("id", LongType.LONG)
            .add(name, LongType.LONG)
            .add("p", StringType.STRING);
    TypedTables typed = new TypedTables();
    typed.create(location, schema, "p");
    for (int i = 0; i < 4; i++) {
      typed.append(
          location,
          "p",
          "a",
          "SELECT range AS id, 500 + range AS \""
              + name
              + "\" FROM range("
              + (i * 5000)
              + ", "
              + (i * 5000 + 5000)
              + ")",
          "in-" + i);
    }
    TableSnapshot before = tables.loadLatest(location);
    String expected = DuckDb.checksum(before.activeFiles(), List.of("id", name));
    CompactionOptions options =
        new CompactionOptions(
            1 << 20,
            40,
            16 << 10,
            1L << 30,
            PartitionFilter.all(),
            OptionalLong.empty(),
            Layout.Z_ORDER,
            List.of("id"));

    CompactionResult result =
        new CompactionExecutor(
                storage,
                new KernelRewriteCommitter(storage, Clock.systemUTC()),
                new KernelDeletionVectorLoader(storage),
                RewriteSettings.defaults(),
                dir.resolve("scratch"),
                Clock.systemUTC())
            .execute(CompactionPlanner.plan(before, options), before);
    TableSnapshot after = tables.loadLatest(location);

    assertThat(result.partitions())
        .extracting(PartitionResult::status)
        .containsExactly(PartitionResult.Status.COMMITTED);
    assertThat(after.activeFiles()).hasSizeGreaterThan(1);
    assertThat(DuckDb.checksum(after.activeFiles(), List.of("id", name)))
        .isEqualTo(expected)
        .startsWith("20000:");
  }

  @Test
  void aTableRootWithASpace_compacts_andItsLogReadsForVacuum() throws Exception {
    TableLocation location = TableLocation.parse("with space", dir);
    StructType schema = new StructType().add("id", LongType.LONG).add("p", StringType.STRING);
    TypedTables typed = new TypedTables();
    typed.create(location, schema, "p");
    for (int i = 0; i < 3; i++) {
      typed.append(
          location,
          "p",
          "a",
          "SELECT range AS id FROM range(" + (i * 5) + ", " + (i * 5 + 5) + ")",
          "in-" + i);
    }
    TableSnapshot before = tables.loadLatest(location);
    String expected = DuckDb.checksum(before.activeFiles(), List.of("id"));

    CompactionResult result = execute(before, Layout.BIN_PACK, List.of());

    assertThat(result.partitions())
        .extracting(PartitionResult::status)
        .containsExactly(PartitionResult.Status.COMMITTED);
    TableSnapshot after = tables.loadLatest(location);
    assertThat(after.activeFiles()).hasSize(1);
    assertThat(DuckDb.checksum(after.activeFiles(), List.of("id"))).isEqualTo(expected);
    assertThat(
            new company.data.compactor.delta.kernel.KernelLogReader(storage)
                .read(location)
                .tombstones()
                .size())
        .isEqualTo(3);
  }

  @Test
  void nestedColumns_getStatsShapedAsTheProtocolSays() throws Exception {
    TableLocation location = TableLocation.parse("nested", dir);
    StructType schema =
        new StructType()
            .add("id", LongType.LONG)
            .add(
                "info",
                new StructType()
                    .add("x", IntegerType.INTEGER)
                    .add("inner", new StructType().add("s", StringType.STRING)))
            .add("arr", new ArrayType(IntegerType.INTEGER, true))
            .add("m", new MapType(StringType.STRING, IntegerType.INTEGER, true))
            .add("p", StringType.STRING);
    TypedTables typed = new TypedTables();
    typed.create(location, schema, "p");
    String rows =
        "SELECT range AS id,"
            + " CASE WHEN range % 5 = 0 THEN NULL ELSE {'x': CAST(range AS INTEGER), 'inner': {'s': CASE WHEN range % 3 = 0 THEN NULL ELSE 's' || range END}} END AS info,"
            + " CASE WHEN range % 4 = 0 THEN NULL ELSE [CAST(range AS INTEGER)] END AS arr,"
            + " MAP {'k': CAST(range AS INTEGER)} AS m FROM range";
    typed.append(location, "p", "a", rows + "(1, 21)", "in-0");
    typed.append(location, "p", "a", rows + "(21, 41)", "in-1");
    TableSnapshot before = tables.loadLatest(location);

    execute(before, Layout.BIN_PACK, List.of());

    DataFile written = tables.loadLatest(location).activeFiles().get(0);
    JsonNode stats = JSON.readTree(written.statsJson());
    assertThat(stats.get("numRecords").asLong()).isEqualTo(40);
    // 1..40: info NULL at 5,10,..,40 (8 rows); inner.s NULL there and at the other multiples of 3
    // (11 more).
    assertThat(stats.get("nullCount").toString())
        .isEqualTo("{\"id\":0,\"info\":{\"x\":8,\"inner\":{\"s\":19}},\"arr\":10,\"m\":0}");
    assertThat(stats.get("minValues").toString())
        .isEqualTo("{\"id\":1,\"info\":{\"x\":1,\"inner\":{\"s\":\"s1\"}}}");
    assertThat(stats.get("maxValues").toString())
        .isEqualTo("{\"id\":40,\"info\":{\"x\":39,\"inner\":{\"s\":\"s8\"}}}");
  }

  private CompactionResult execute(TableSnapshot snapshot, Layout layout, List<String> zOrder) {
    CompactionOptions options =
        new CompactionOptions(
            1 << 20,
            40,
            128 << 20,
            1L << 30,
            PartitionFilter.all(),
            OptionalLong.empty(),
            layout,
            zOrder);
    return new CompactionExecutor(
            storage,
            new KernelRewriteCommitter(storage, Clock.systemUTC()),
            new KernelDeletionVectorLoader(storage),
            RewriteSettings.defaults(),
            dir.resolve("scratch"),
            Clock.systemUTC())
        .execute(CompactionPlanner.plan(snapshot, options), snapshot);
  }

  private static Map<String, String> partition(String... columnsAndValues) {
    Map<String, String> values = new LinkedHashMap<>();
    for (int i = 0; i < columnsAndValues.length; i += 2) {
      values.put(columnsAndValues[i], columnsAndValues[i + 1]);
    }
    return values;
  }

  /** The sorted ids each partition's files hold, keyed by the partition values from the log. */
  static Map<String, String> idsByPartition(TableSnapshot snapshot) throws Exception {
    Map<String, List<DataFile>> files = new HashMap<>();
    for (DataFile file : snapshot.activeFiles()) {
      files
          .computeIfAbsent(file.partition().values().toString(), k -> new java.util.ArrayList<>())
          .add(file);
    }
    Map<String, String> ids = new TreeMap<>();
    for (Map.Entry<String, List<DataFile>> entry : files.entrySet()) {
      ids.put(
          entry.getKey(), query(entry.getValue(), "SELECT CAST(list(id ORDER BY id) AS VARCHAR)"));
    }
    return ids;
  }

  /** One value: {@code select} (without FROM) over the files, read by DuckDB. */
  static String query(List<DataFile> files, String select) throws Exception {
    String paths =
        files.stream()
            .map(f -> "'" + LocalStorage.toPath(f.path()).toString().replace("'", "''") + "'")
            .reduce((a, b) -> a + ", " + b)
            .orElseThrow();
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                select
                    + " FROM read_parquet(["
                    + paths
                    + "], hive_partitioning = false, union_by_name = true)")) {
      rs.next();
      return rs.getString(1);
    }
  }

  private static List<String> listing(Path root) throws Exception {
    try (var files = Files.walk(root)) {
      return files.map(root::relativize).map(Path::toString).sorted().toList();
    }
  }
}
