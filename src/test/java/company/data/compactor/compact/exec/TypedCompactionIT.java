package company.data.compactor.compact.exec;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.compact.CompactionOptions;
import company.data.compactor.compact.CompactionPlan;
import company.data.compactor.compact.CompactionPlanner;
import company.data.compactor.compact.CompactionResult;
import company.data.compactor.compact.Layout;
import company.data.compactor.compact.PartitionFilter;
import company.data.compactor.delta.kernel.KernelDeletionVectorLoader;
import company.data.compactor.delta.kernel.KernelDeltaTables;
import company.data.compactor.delta.kernel.KernelRewriteCommitter;
import company.data.compactor.delta.kernel.TypedTables;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.testing.DuckDb;
import company.data.compactor.testing.LocalCompactions;
import io.delta.kernel.types.ArrayType;
import io.delta.kernel.types.BinaryType;
import io.delta.kernel.types.BooleanType;
import io.delta.kernel.types.ByteType;
import io.delta.kernel.types.DateType;
import io.delta.kernel.types.DecimalType;
import io.delta.kernel.types.DoubleType;
import io.delta.kernel.types.FloatType;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.MapType;
import io.delta.kernel.types.ShortType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.TimestampNTZType;
import io.delta.kernel.types.TimestampType;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every Delta primitive type plus arrays, structs, maps and NULLs survive a rewrite exactly. */
class TypedCompactionIT {

  private static final List<String> COLUMNS =
      List.of(
          "b", "s", "i", "l", "f", "d", "dec", "bool", "str", "bin", "dt", "ts", "ts_ntz", "arr",
          "st", "m");

  private static final StructType SCHEMA =
      new StructType()
          .add("b", ByteType.BYTE)
          .add("s", ShortType.SHORT)
          .add("i", IntegerType.INTEGER)
          .add("l", LongType.LONG)
          .add("f", FloatType.FLOAT)
          .add("d", DoubleType.DOUBLE)
          .add("dec", new DecimalType(18, 4))
          .add("bool", BooleanType.BOOLEAN)
          .add("str", StringType.STRING)
          .add("bin", BinaryType.BINARY)
          .add("dt", DateType.DATE)
          .add("ts", TimestampType.TIMESTAMP)
          .add("ts_ntz", TimestampNTZType.TIMESTAMP_NTZ)
          .add("arr", new ArrayType(IntegerType.INTEGER, true))
          .add("st", new StructType().add("x", IntegerType.INTEGER).add("y", StringType.STRING))
          .add("m", new MapType(StringType.STRING, IntegerType.INTEGER, true))
          .add("p", StringType.STRING);

  /** Rows {@code from..from+n}; every 5th row is NULL in every column. */
  private static String rows(int from, int n) {
    return "SELECT"
        + " CASE WHEN r % 5 = 0 THEN NULL ELSE CAST(r % 100 - 50 AS TINYINT) END AS b,"
        + " CASE WHEN r % 5 = 0 THEN NULL ELSE CAST(r * 7 AS SMALLINT) END AS s,"
        + " CASE WHEN r % 5 = 0 THEN NULL ELSE CAST(r * 1000 AS INTEGER) END AS i,"
        + " CASE WHEN r % 5 = 0 THEN NULL ELSE CAST(r AS BIGINT) * 3000000000 END AS l,"
        + " CASE WHEN r % 5 = 0 THEN NULL ELSE CAST(r / 3.0 AS FLOAT) END AS f,"
        + " CASE WHEN r % 5 = 0 THEN NULL ELSE r / 7.0 END AS d,"
        + " CASE WHEN r % 5 = 0 THEN NULL ELSE CAST(r * 1.2345 - 99 AS DECIMAL(18,4)) END AS dec,"
        + " CASE WHEN r % 5 = 0 THEN NULL ELSE r % 2 = 0 END AS bool,"
        + " CASE WHEN r % 5 = 0 THEN NULL ELSE 'zürich-東京-' || repeat('x', 25) || r END AS str,"
        + " CASE WHEN r % 5 = 0 THEN NULL ELSE encode('bytes' || r) END AS bin,"
        + " CASE WHEN r % 5 = 0 THEN NULL ELSE DATE '1969-07-20' + CAST(r AS INTEGER) END AS dt,"
        + " CASE WHEN r % 5 = 0 THEN NULL ELSE TIMESTAMPTZ '1965-03-01 12:00:00.123456+00' + to_microseconds(r * 1000003) END AS ts,"
        + " CASE WHEN r % 5 = 0 THEN NULL ELSE TIMESTAMP '2030-01-01 00:00:00.000001' + to_microseconds(r * 999) END AS ts_ntz,"
        + " CASE WHEN r % 5 = 0 THEN NULL ELSE [CAST(r AS INTEGER), NULL, CAST(r + 1 AS INTEGER)] END AS arr,"
        + " CASE WHEN r % 5 = 0 THEN NULL ELSE {'x': CAST(r AS INTEGER), 'y': CASE WHEN r % 3 = 0 THEN NULL ELSE 'y' || r END} END AS st,"
        + " CASE WHEN r % 5 = 0 THEN NULL ELSE MAP {'k' || r: CAST(r AS INTEGER), 'n': NULL} END AS m"
        + " FROM range("
        + from
        + ", "
        + (from + n)
        + ") t(r)";
  }

  @TempDir Path dir;

  @Test
  void everyTypeAndNull_compactsWithIdenticalChecksum_andTimestampsKeepTheirKind()
      throws Exception {
    LocalStorage storage = new LocalStorage();
    TableLocation location = TableLocation.parse("typed", dir);
    TypedTables typed = new TypedTables();
    typed.create(location, SCHEMA, "p");
    for (int i = 0; i < 6; i++) {
      typed.append(location, "p", i % 2 == 0 ? "a" : "b", rows(i * 40, 40), "in-" + i);
    }
    KernelDeltaTables tables = new KernelDeltaTables(storage);
    TableSnapshot before = tables.loadLatest(location);
    String checksum = DuckDb.checksum(before.activeFiles(), COLUMNS);

    CompactionOptions options = LocalCompactions.binPack(1 << 20, 40, 128 << 20);
    CompactionPlan plan = CompactionPlanner.plan(before, options);
    CompactionResult result =
        new CompactionExecutor(
                storage,
                new KernelRewriteCommitter(storage, Clock.systemUTC()),
                new KernelDeletionVectorLoader(storage),
                RewriteSettings.defaults(),
                dir.resolve("scratch"),
                Clock.systemUTC())
            .execute(plan, before);
    TableSnapshot after = tables.loadLatest(location);

    assertThat(result.filesRemoved()).isEqualTo(6);
    assertThat(after.activeFiles()).hasSize(2);
    assertThat(DuckDb.checksum(after.activeFiles(), COLUMNS))
        .isEqualTo(checksum)
        .startsWith("240:");
    assertThat(after.activeFiles()).allSatisfy(f -> assertThat(f.numRecords()).hasValue(120));

    Map<String, String> logical = parquetLogicalTypes(after.activeFiles().get(0));
    assertThat(logical.get("ts")).contains("isAdjustedToUTC=1");
    assertThat(logical.get("ts_ntz")).contains("isAdjustedToUTC=0");
  }

  /**
   * A Z-ordered bin that fits one output file but holds more rows than the two row groups the
   * writer's size probe writes: the probe is not the output (only a bin the probe holds whole
   * reuses it as its file), so every row is written. A mutant that reused the probe whenever one
   * file fits wrote only the probe's rows, refused by verification.
   */
  @Test
  void aZOrderedBinOfOneFileButMoreRowsThanTheSizeProbe_writesEveryRowOnce() throws Exception {
    LocalStorage storage = new LocalStorage();
    TableLocation location = TableLocation.parse("wide-bin", dir);
    StructType schema =
        new StructType()
            .add("id", LongType.LONG)
            .add("v", StringType.STRING)
            .add("p", StringType.STRING);
    TypedTables typed = new TypedTables();
    typed.create(location, schema, "p");
    for (int i = 0; i < 3; i++) {
      typed.append(
          location,
          "p",
          "a",
          "SELECT CAST(r AS BIGINT) AS id, 'v' || (r * 7919 % 10007) AS v FROM range("
              + i * 10_000
              + ", "
              + (i + 1) * 10_000
              + ") t(r)",
          "in-" + i);
    }
    KernelDeltaTables tables = new KernelDeltaTables(storage);
    TableSnapshot before = tables.loadLatest(location);
    List<String> columns = List.of("id", "v");
    String checksum = DuckDb.checksum(before.activeFiles(), columns);
    long inputBytes = before.activeFiles().stream().mapToLong(DataFile::sizeBytes).sum();
    long target = 1 << 20;
    // More rows than the probe's two row groups, fewer bytes than one target file.
    assertThat(2 * RowGroupSize.rows(target, 30_000, inputBytes)).isLessThan(30_000);
    assertThat(inputBytes).isLessThan(target / 2);

    CompactionResult result =
        LocalCompactions.execute(
            storage,
            dir.resolve("scratch"),
            before,
            LocalCompactions.options(target, 3, target, Layout.Z_ORDER, List.of("v")));
    TableSnapshot after = tables.loadLatest(location);

    assertThat(result.filesRemoved()).isEqualTo(3);
    assertThat(after.activeFiles())
        .singleElement()
        .satisfies(f -> assertThat(f.numRecords()).hasValue(30_000));
    assertThat(DuckDb.checksum(after.activeFiles(), columns))
        .isEqualTo(checksum)
        .startsWith("30000:");
  }

  @Test
  void zOrder_overEveryOrderableTypeWithNulls_keepsEveryRow() throws Exception {
    LocalStorage storage = new LocalStorage();
    KernelDeltaTables tables = new KernelDeltaTables(storage);
    CompactionExecutor executor =
        new CompactionExecutor(
            storage,
            new KernelRewriteCommitter(storage, Clock.systemUTC()),
            new KernelDeletionVectorLoader(storage),
            RewriteSettings.defaults(),
            dir.resolve("scratch"),
            Clock.systemUTC());
    List<List<String>> keys =
        List.of(
            List.of("b", "s", "i", "l"),
            List.of("f", "d", "dec", "bool"),
            List.of("str", "dt", "ts", "ts_ntz"));

    for (List<String> columns : keys) {
      TableLocation location = TableLocation.parse("typed-" + String.join("-", columns), dir);
      TypedTables typed = new TypedTables();
      typed.create(location, SCHEMA, "p");
      for (int i = 0; i < 4; i++) {
        typed.append(location, "p", "a", rows(i * 40, 40), "in-" + i);
      }
      TableSnapshot before = tables.loadLatest(location);
      String checksum = DuckDb.checksum(before.activeFiles(), COLUMNS);
      CompactionOptions options =
          new CompactionOptions(
              1 << 20,
              40,
              128 << 20,
              1L << 30,
              PartitionFilter.all(),
              OptionalLong.empty(),
              Layout.Z_ORDER,
              columns);

      CompactionResult result = executor.execute(CompactionPlanner.plan(before, options), before);

      assertThat(result.compacted()).as("z-order by %s", columns).isTrue();
      TableSnapshot after = tables.loadLatest(location);
      assertThat(DuckDb.checksum(after.activeFiles(), COLUMNS))
          .as("z-order by %s", columns)
          .isEqualTo(checksum)
          .startsWith("160:");
      assertThat(after.activeFiles())
          .allSatisfy(f -> assertThat(f.zOrderedBy()).isEqualTo(columns));
    }
  }

  @Test
  void zOrderKeySql_inDuckDb_equalsTheJavaKey() throws Exception {
    java.util.Random random = new java.util.Random(5);
    try (java.sql.Connection c = company.data.compactor.duckdb.DuckDbConnections.inMemory();
        java.sql.Statement s = c.createStatement()) {
      for (int trial = 0; trial < 200; trial++) {
        int columns = 1 + random.nextInt(4);
        int[] buckets = new int[columns];
        List<String> literals = new java.util.ArrayList<>();
        for (int j = 0; j < columns; j++) {
          buckets[j] = random.nextInt(company.data.compactor.compact.ZOrderKey.BUCKETS);
          literals.add(Integer.toString(buckets[j]));
        }
        try (java.sql.ResultSet rs =
            s.executeQuery("SELECT " + company.data.compactor.compact.ZOrderKey.sql(literals))) {
          rs.next();
          assertThat(rs.getLong(1))
              .isEqualTo(company.data.compactor.compact.ZOrderKey.interleave(buckets));
        }
      }
    }
  }

  /**
   * The bucket search in DuckDB against counting in Java: for each value, how many boundaries are
   * at or below it, over integers, doubles (NaN sorts last in both), strings sharing a long prefix,
   * dates and decimals; values below, between, equal to and above the boundaries; NULL: 0. Boundary
   * lists of 1 to 1,023 entries (a full list uses every step of the search).
   */
  @Test
  void zOrderBucketSearch_inDuckDb_countsTheBoundariesAtOrBelowEachValue() throws Exception {
    java.util.Random random = new java.util.Random(11);
    String prefix = "account-holder-with-a-long-shared-prefix-".repeat(4);
    record Case(String type, java.util.function.IntFunction<String> literal) {}
    List<Case> cases =
        List.of(
            new Case("BIGINT", i -> Long.toString(i * 7L - 3_000)),
            new Case("DOUBLE", i -> Double.toString(i * 0.37 - 100)),
            new Case("VARCHAR", i -> "'" + prefix + String.format("%06d", i) + "'"),
            new Case("DATE", i -> "DATE '2020-01-01' + " + i),
            new Case(
                "DECIMAL(18,3)", i -> "CAST(" + (i * 13 - 5_000) + " AS DECIMAL(18,3)) / 1000"));
    try (java.sql.Connection c = company.data.compactor.duckdb.DuckDbConnections.inMemory();
        java.sql.Statement s = c.createStatement()) {
      for (Case test : cases) {
        for (int size : new int[] {1, 2, 100, 1_023}) {
          // Boundaries at ranks spread over 0..2*size; values at every rank 0..2*size+2 and NULL.
          java.util.TreeSet<Integer> ranks = new java.util.TreeSet<>();
          while (ranks.size() < size) {
            ranks.add(1 + random.nextInt(2 * size));
          }
          String list =
              ranks.stream()
                  .map(r -> "CAST(" + test.literal().apply(r) + " AS " + test.type() + ")")
                  .collect(java.util.stream.Collectors.joining(", ", "[", "]"));
          s.execute("SET VARIABLE " + DuckDbRewriter.boundaries(0) + " = " + list);
          StringBuilder values = new StringBuilder("(-1, CAST(NULL AS " + test.type() + "))");
          for (int rank = 0; rank <= 2 * size + 2; rank++) {
            values
                .append(", (")
                .append(rank)
                .append(", CAST(")
                .append(test.literal().apply(rank))
                .append(" AS ")
                .append(test.type())
                .append("))");
          }
          s.execute(
              "CREATE OR REPLACE TEMP TABLE vals AS SELECT * FROM (VALUES " + values + ") t(r, v)");
          String sql =
              "SELECT r, "
                  + DuckDbRewriter.bucket(0)
                  + " FROM "
                  + DuckDbRewriter.withBuckets("(SELECT r, v FROM vals)", List.of("v"))
                  + " ORDER BY r";
          try (java.sql.ResultSet rs = s.executeQuery(sql)) {
            int rows = 0;
            while (rs.next()) {
              int rank = rs.getInt(1);
              long expected = rank < 0 ? 0 : ranks.headSet(rank, true).size();
              assertThat(rs.getLong(2))
                  .as("%s, %d boundaries, value of rank %d", test.type(), size, rank)
                  .isEqualTo(expected);
              rows++;
            }
            assertThat(rows).isEqualTo(2 * size + 4);
          }
        }
      }
    }
  }

  @Test
  void stats_boundEveryValue_withTruncatedStringsAndMillisecondTimestamps() throws Exception {
    LocalStorage storage = new LocalStorage();
    TableLocation location = TableLocation.parse("typed", dir);
    TypedTables typed = new TypedTables();
    typed.create(location, SCHEMA, "p");
    typed.append(location, "p", "a", rows(1, 40), "in-0");
    typed.append(location, "p", "a", rows(41, 40), "in-1");
    KernelDeltaTables tables = new KernelDeltaTables(storage);
    TableSnapshot before = tables.loadLatest(location);
    CompactionOptions options = LocalCompactions.binPack(1 << 20, 40, 128 << 20);
    LocalCompactions.execute(storage, dir.resolve("scratch"), before, options);

    String addLine =
        java.nio.file.Files.readAllLines(dir.resolve("typed/_delta_log/%020d.json".formatted(3)))
            .stream()
            .filter(l -> l.contains("\"add\""))
            .findFirst()
            .orElseThrow();
    JsonNode stats =
        new ObjectMapper()
            .readTree(new ObjectMapper().readTree(addLine).get("add").get("stats").asText());

    assertThat(stats.get("numRecords").asLong()).isEqualTo(80);
    assertThat(stats.get("nullCount").get("i").asLong()).isEqualTo(16);
    assertThat(stats.get("minValues").get("i").asLong()).isEqualTo(1000);
    assertThat(stats.get("maxValues").get("i").asLong()).isEqualTo(79000);
    assertThat(stats.get("minValues").get("dec").decimalValue()).isEqualByComparingTo("-97.7655");
    assertThat(stats.get("minValues").get("dt").asText()).isEqualTo("1969-07-21");
    // 12:00:00.123456 + r * 1.000003 s, r = 1..79: the minimum floored, the maximum (…19.123693)
    // ceiled.
    assertThat(stats.get("minValues").get("ts").asText()).isEqualTo("1965-03-01T12:00:01.123Z");
    assertThat(stats.get("maxValues").get("ts").asText()).isEqualTo("1965-03-01T12:01:19.124Z");
    assertThat(stats.get("minValues").get("ts_ntz").asText()).isEqualTo("2030-01-01T00:00:00.001");
    // Every value is longer than 32 code points and shares the first 32.
    String prefix = "zürich-東京-" + "x".repeat(22);
    assertThat(stats.get("minValues").get("str").asText()).isEqualTo(prefix);
    assertThat(stats.get("maxValues").get("str").asText())
        .isEqualTo(prefix + new String(Character.toChars(0x10FFFF)));
    assertThat(stats.get("minValues").has("bool")).isFalse();
    assertThat(stats.get("minValues").has("arr")).isFalse();
    assertThat(stats.get("nullCount").get("bin").asLong()).isEqualTo(16);
  }

  /**
   * Delta keeps no bounds for a float column holding NaN or an infinity (JSON has neither, and a
   * bound that is NaN would make readers skip files): per partition, NaN, +inf or -inf in a double
   * or float column, top-level or nested in a struct, drops that column's bounds and keeps its null
   * count; the same column without them, and the other columns, keep theirs.
   */
  @Test
  void stats_ofFloatColumnsWithNanOrInfinity_haveNullCountsButNoBounds() throws Exception {
    StructType schema =
        new StructType()
            .add("f", FloatType.FLOAT)
            .add("d", DoubleType.DOUBLE)
            .add("st", new StructType().add("z", DoubleType.DOUBLE))
            .add("i", IntegerType.INTEGER)
            .add("p", StringType.STRING);
    LocalStorage storage = new LocalStorage();
    TableLocation location = TableLocation.parse("floats", dir);
    TypedTables typed = new TypedTables();
    typed.create(location, schema, "p");
    Map<String, String> special =
        Map.of("nan", "'nan'", "pinf", "'inf'", "ninf", "'-inf'", "finite", "'1.5'");
    for (Map.Entry<String, String> c : special.entrySet()) {
      for (int append = 0; append < 2; append++) {
        // Row 3 of the first append holds the special value in every float column; row 4 NULLs.
        String value = append == 0 ? "CASE WHEN r = 3 THEN " + c.getValue() + " END" : "NULL";
        typed.append(
            location,
            "p",
            c.getKey(),
            "SELECT CASE WHEN r = 4 THEN NULL ELSE CAST(coalesce("
                + value
                + ", CAST(r AS VARCHAR)) AS FLOAT) END AS f,"
                + " CASE WHEN r = 4 THEN NULL ELSE CAST(coalesce("
                + value
                + ", CAST(r AS VARCHAR)) AS DOUBLE) END AS d,"
                + " {'z': CASE WHEN r = 4 THEN NULL ELSE CAST(coalesce("
                + value
                + ", CAST(r AS VARCHAR)) AS DOUBLE) END} AS st,"
                + " CAST(r AS INTEGER) AS i FROM range(0, 6) t(r)",
            "in-" + c.getKey() + "-" + append);
      }
    }
    KernelDeltaTables tables = new KernelDeltaTables(storage);
    TableSnapshot before = tables.loadLatest(location);
    CompactionOptions options = LocalCompactions.binPack(1 << 20, 2, 128 << 20);
    LocalCompactions.execute(storage, dir.resolve("scratch"), before, options);

    Map<String, JsonNode> statsByPartition = new HashMap<>();
    ObjectMapper json = new ObjectMapper();
    for (long v = before.version() + 1; v <= tables.loadLatest(location).version(); v++) {
      for (String line :
          java.nio.file.Files.readAllLines(
              dir.resolve("floats/_delta_log/%020d.json".formatted(v)))) {
        JsonNode add = json.readTree(line).get("add");
        if (add != null) {
          statsByPartition.put(
              add.get("partitionValues").get("p").asText(),
              json.readTree(add.get("stats").asText()));
        }
      }
    }
    assertThat(statsByPartition).containsOnlyKeys("nan", "pinf", "ninf", "finite");
    statsByPartition.forEach(
        (partition, stats) -> {
          boolean finite = partition.equals("finite");
          assertThat(stats.get("numRecords").asLong()).as(partition).isEqualTo(12);
          for (String column : List.of("f", "d")) {
            assertThat(stats.get("nullCount").get(column).asLong())
                .as("%s nullCount.%s", partition, column)
                .isEqualTo(2);
            assertThat(stats.get("minValues").has(column))
                .as("%s minValues.%s", partition, column)
                .isEqualTo(finite);
            assertThat(stats.get("maxValues").has(column))
                .as("%s maxValues.%s", partition, column)
                .isEqualTo(finite);
          }
          assertThat(stats.get("nullCount").get("st").get("z").asLong()).isEqualTo(2);
          assertThat(stats.path("minValues").path("st").has("z"))
              .as("%s minValues.st.z", partition)
              .isEqualTo(finite);
          assertThat(stats.get("minValues").get("i").asLong()).as(partition).isZero();
          assertThat(stats.get("maxValues").get("i").asLong()).as(partition).isEqualTo(5);
        });
    // A zero minimum is widened below -0.0 (StatsJson.zeroWidened).
    assertThat(statsByPartition.get("finite").get("minValues").get("d").asDouble())
        .isEqualTo(-Double.MIN_VALUE);
    assertThat(statsByPartition.get("finite").get("maxValues").get("d").asDouble()).isEqualTo(5.0);
  }

  private static Map<String, String> parquetLogicalTypes(DataFile file) throws Exception {
    Map<String, String> types = new HashMap<>();
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT name, CAST(logical_type AS VARCHAR) FROM parquet_schema('"
                    + LocalStorage.toPath(file.path())
                    + "')")) {
      while (rs.next()) {
        types.put(rs.getString(1), rs.getString(2));
      }
    }
    return types;
  }
}
