package company.data.compactor.compact.exec;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.compact.CompactionOptions;
import company.data.compactor.compact.Layout;
import company.data.compactor.delta.kernel.KernelDeltaTables;
import company.data.compactor.delta.kernel.TypedTables;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.testing.LocalCompactions;
import io.delta.kernel.types.DateType;
import io.delta.kernel.types.DecimalType;
import io.delta.kernel.types.DoubleType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.TimestampType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stats of every rewritten file bound every value it holds, checked by a full DuckDB scan of
 * the file against the bounds in the commit (a value outside them makes readers skip its file).
 */
class StatsBoundsIT {

  /** Column name to the DuckDB type its bounds are compared as. */
  private static final Map<String, String> TYPES = new LinkedHashMap<>();

  static {
    TYPES.put("s_maxcp", "VARCHAR");
    TYPES.put("s_long", "VARCHAR");
    TYPES.put("s_empty", "VARCHAR");
    TYPES.put("d", "DOUBLE");
    TYPES.put("dec", "DECIMAL(38,10)");
    TYPES.put("dt", "DATE");
    TYPES.put("ts", "TIMESTAMPTZ");
  }

  private static final StructType SCHEMA =
      new StructType()
          .add("s_maxcp", StringType.STRING)
          .add("s_long", StringType.STRING)
          .add("s_empty", StringType.STRING)
          .add("d", DoubleType.DOUBLE)
          .add("dec", new DecimalType(38, 10))
          .add("dt", DateType.DATE)
          .add("ts", TimestampType.TIMESTAMP)
          .add("p", StringType.STRING);

  @TempDir Path dir;

  /**
   * Row r of each append: strings of 31 'a's then U+10FFFF twice (past the 32-code-point cut) and a
   * letter; 300-character strings sharing 299; the empty string; -0.0 and tiny/huge negative
   * decimals; dates before 1582; timestamps before 1970.
   */
  private static String rows(int from) {
    return "SELECT"
        + " CASE WHEN r % 2 = 0 THEN repeat('a', 31) || chr(1114111) || chr(1114111) || chr(CAST(98 + r AS INTEGER))"
        + "   ELSE repeat('a', 31) || chr(1114111) END AS s_maxcp,"
        + " repeat('q', 299) || chr(CAST(97 + r AS INTEGER)) AS s_long,"
        + " CASE WHEN r = 1 THEN '' ELSE 'x' || r END AS s_empty,"
        + " CASE WHEN r = 0 THEN -0.0::DOUBLE ELSE r::DOUBLE END AS d,"
        + " CASE WHEN r = 0 THEN -99999999999999999999999999.9999999999::DECIMAL(38,10)"
        + "   ELSE (r * 0.0000000001)::DECIMAL(38,10) END AS dec,"
        + " DATE '1000-03-01' + CAST(r AS INTEGER) AS dt,"
        + " TIMESTAMPTZ '1900-01-01 00:00:00.000001+00' + to_microseconds(r) AS ts"
        + " FROM range("
        + from
        + ", "
        + (from + 4)
        + ") t(r)";
  }

  @Test
  void stats_boundEveryValueOfTheRewrittenFile_byAFullScan() throws Exception {
    LocalStorage storage = new LocalStorage();
    TableLocation location = TableLocation.parse("bounds", dir);
    TypedTables typed = new TypedTables();
    typed.create(location, SCHEMA, "p");
    typed.append(location, "p", "a", rows(0), "in-0");
    typed.append(location, "p", "a", rows(4), "in-1");
    KernelDeltaTables tables = new KernelDeltaTables(storage);
    TableSnapshot before = tables.loadLatest(location);
    CompactionOptions options = LocalCompactions.binPack(1 << 20, 2, 128 << 20);
    LocalCompactions.execute(storage, dir.resolve("scratch"), before, options);

    ObjectMapper json = new ObjectMapper();
    List<String> violations = new ArrayList<>();
    int adds = 0;
    for (long v = before.version() + 1; v <= tables.loadLatest(location).version(); v++) {
      for (String line :
          Files.readAllLines(dir.resolve("bounds/_delta_log/%020d.json".formatted(v)))) {
        JsonNode add = json.readTree(line).get("add");
        if (add == null) {
          continue;
        }
        adds++;
        JsonNode stats = json.readTree(add.get("stats").asText());
        Path file = dir.resolve("bounds").resolve(add.get("path").asText());
        violations.addAll(violations(file, stats));
      }
    }
    assertThat(adds).isEqualTo(1);
    assertThat(violations).isEmpty();
  }

  /**
   * NaN in one row of one row group of a multi-row-group output (top level and in a struct): the
   * bounds of those columns must go, whatever the footer of the other row groups says.
   */
  @Test
  void stats_withNanInOneRowGroupOfManyOutputs_boundEveryValue_binPackAndZOrder() throws Exception {
    StructType schema =
        new StructType()
            .add("d", DoubleType.DOUBLE)
            .add("f", io.delta.kernel.types.FloatType.FLOAT)
            .add("st", new StructType().add("z", DoubleType.DOUBLE))
            .add("i", io.delta.kernel.types.IntegerType.INTEGER)
            .add("p", StringType.STRING);
    Map<String, String> types = new LinkedHashMap<>();
    types.put("d", "DOUBLE");
    types.put("f", "FLOAT");
    types.put("st.z", "DOUBLE");
    types.put("i", "INTEGER");
    for (Layout layout : List.of(Layout.BIN_PACK, Layout.Z_ORDER)) {
      LocalStorage storage = new LocalStorage();
      TableLocation location = TableLocation.parse("nan-" + layout, dir);
      TypedTables typed = new TypedTables();
      typed.create(location, schema, "p");
      for (int a = 0; a < 2; a++) {
        typed.append(
            location,
            "p",
            "a",
            "SELECT CASE WHEN r = 15000 THEN 'nan'::DOUBLE ELSE r / 3.0 END AS d,"
                + " CASE WHEN r = 15001 THEN 'nan'::FLOAT ELSE (r / 3.0)::FLOAT END AS f,"
                + " {'z': CASE WHEN r = 15002 THEN 'nan'::DOUBLE ELSE r * 1.0 END} AS st,"
                + " CAST(r AS INTEGER) AS i FROM range("
                + (a * 10000)
                + ", "
                + (a * 10000 + 10000)
                + ") t(r)",
            "in-" + a);
      }
      KernelDeltaTables tables = new KernelDeltaTables(storage);
      TableSnapshot before = tables.loadLatest(location);
      CompactionOptions options =
          LocalCompactions.options(
              1 << 30,
              2,
              1 << 20,
              layout,
              layout == Layout.Z_ORDER ? List.of("d", "i") : List.of());
      LocalCompactions.execute(storage, dir.resolve("scratch"), before, options);
      ObjectMapper json = new ObjectMapper();
      List<String> violations = new ArrayList<>();
      int adds = 0;
      long rows = 0;
      long rowGroups = 0;
      for (long v = before.version() + 1; v <= tables.loadLatest(location).version(); v++) {
        for (String line :
            Files.readAllLines(
                location.localPath().resolve("_delta_log/%020d.json".formatted(v)))) {
          JsonNode add = json.readTree(line).get("add");
          if (add == null) {
            continue;
          }
          adds++;
          JsonNode stats = json.readTree(add.get("stats").asText());
          rows += stats.get("numRecords").asLong();
          rowGroups =
              Math.max(
                  rowGroups, rowGroups(location.localPath().resolve(add.get("path").asText())));
          violations.addAll(
              violations(location.localPath().resolve(add.get("path").asText()), stats, types)
                  .stream()
                  .map(x -> layout + " " + add.get("path").asText() + " " + x)
                  .toList());
        }
      }
      assertThat(adds).as(layout + " adds").isPositive();
      assertThat(rows).as(layout + " rows").isEqualTo(20000);
      assertThat(rowGroups).as(layout + " row groups of the largest output").isGreaterThan(1);
      assertThat(violations).as(layout.toString()).isEmpty();
    }
  }

  private static long rowGroups(Path file) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        java.sql.Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT count(DISTINCT row_group_id) FROM parquet_metadata('" + file + "')")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static List<String> violations(Path file, JsonNode stats) throws Exception {
    return violations(file, stats, TYPES);
  }

  private static List<String> violations(Path file, JsonNode stats, Map<String, String> types)
      throws Exception {
    List<String> found = new ArrayList<>();
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:")) {
      for (Map.Entry<String, String> column : types.entrySet()) {
        String name = column.getKey();
        String type = column.getValue();
        String[] path = name.split("\\.");
        JsonNode min = stats.path("minValues");
        JsonNode max = stats.path("maxValues");
        JsonNode nullNode = stats.path("nullCount");
        for (String part : path) {
          min = min == null ? null : min.get(part);
          max = max == null ? null : max.get(part);
          nullNode = nullNode.path(part);
        }
        String ref =
            path.length == 1 ? "\"" + name + "\"" : "\"" + path[0] + "\".\"" + path[1] + "\"";
        String sql =
            "SELECT count(*) - count("
                + ref
                + "), "
                + (min == null
                    ? "0"
                    : "count(*) FILTER (WHERE " + ref + " < CAST(? AS " + type + "))")
                + ", "
                + (max == null
                    ? "0"
                    : "count(*) FILTER (WHERE " + ref + " > CAST(? AS " + type + "))")
                + " FROM read_parquet('"
                + file
                + "')";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
          int p = 1;
          if (min != null) {
            ps.setString(p++, min.asText());
          }
          if (max != null) {
            ps.setString(p, max.asText());
          }
          try (ResultSet rs = ps.executeQuery()) {
            rs.next();
            long nulls = nullNode.asLong(-1);
            if (rs.getLong(1) != nulls) {
              found.add(name + ": nullCount " + nulls + " but the file holds " + rs.getLong(1));
            }
            if (rs.getLong(2) > 0) {
              found.add(name + ": " + rs.getLong(2) + " values below minValues " + min);
            }
            if (rs.getLong(3) > 0) {
              found.add(name + ": " + rs.getLong(3) + " values above maxValues " + max);
            }
          }
        }
      }
    }
    return found;
  }
}
