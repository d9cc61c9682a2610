package company.data.compactor.compact.exec;

import company.data.compactor.duckdb.Sql;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Parquet footer keys that tell Spark 3 which calendar a file's dates and timestamps are in,
 * carried from a bin's inputs to its outputs. Spark reads a file without {@code
 * org.apache.spark.version} under {@code spark.sql.parquet.datetimeRebaseModeInRead}, whose default
 * ({@code EXCEPTION}) refuses dates before 1582-10-15; a file Spark 3 wrote in its default
 * (proleptic Gregorian, no {@code org.apache.spark.legacyDateTime}) mode it reads as is. DuckDB
 * writes proleptic Gregorian too, but no such key, so without it Spark would refuse to read an
 * ancient date it read before the rewrite. Files in Spark's legacy calendar are {@link
 * RewriteVerifier}'s business (it refuses those holding values the calendars disagree on).
 */
final class SparkCalendar {

  static final String VERSION = "org.apache.spark.version";

  private SparkCalendar() {}

  /**
   * The keys to write into every output of a bin whose inputs carry {@code inputKeys} (each file's
   * {@code org.apache.spark.*} footer keys): {@code org.apache.spark.version} = the newest Spark 3+
   * version among the inputs Spark wrote in proleptic mode; empty when no input is such a file.
   */
  static Map<String, String> outputKeys(Collection<Map<String, String>> inputKeys) {
    Optional<String> newest =
        inputKeys.stream()
            .filter(keys -> RewriteVerifier.legacyCalendar(keys) == null)
            .map(keys -> keys.get(VERSION))
            .filter(v -> v != null && major(v) >= 3)
            .max(Comparator.comparing(SparkCalendar::parts, Arrays::compare));
    return newest.map(v -> Map.of(VERSION, v.strip())).orElse(Map.of());
  }

  /** As {@link #outputKeys(Collection)}, reading the inputs' footers with {@code connection}. */
  static Map<String, String> outputKeys(Connection connection, List<Path> inputs)
      throws SQLException {
    Map<String, Map<String, String>> keys = new LinkedHashMap<>();
    String sql =
        "SELECT file_name, CAST(key AS VARCHAR), CAST(value AS VARCHAR) FROM parquet_kv_metadata("
            + Sql.pathList(inputs)
            + ") WHERE starts_with(CAST(key AS VARCHAR), 'org.apache.spark.')";
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        keys.computeIfAbsent(rs.getString(1), k -> new LinkedHashMap<>())
            .put(rs.getString(2), rs.getString(3));
      }
    }
    return outputKeys(keys.values());
  }

  /** The {@code KV_METADATA} option of DuckDB's {@code COPY} for {@code keys}; empty for none. */
  static String copyOption(Map<String, String> keys) {
    if (keys.isEmpty()) {
      return "";
    }
    return keys.entrySet().stream()
        .map(e -> Sql.literal(e.getKey()) + ": " + Sql.literal(e.getValue()))
        .collect(java.util.stream.Collectors.joining(", ", ", KV_METADATA {", "}"));
  }

  private static int major(String version) {
    int[] parts = parts(version);
    return parts.length == 0 ? -1 : parts[0];
  }

  /** The leading numbers of a version ({@code 3.5.7} -> 3, 5, 7; {@code 3.4.1-amzn} -> 3, 4). */
  private static int[] parts(String version) {
    return Arrays.stream(version.strip().split("\\."))
        .takeWhile(p -> !p.isEmpty() && p.chars().allMatch(Character::isDigit) && p.length() < 9)
        .mapToInt(Integer::parseInt)
        .toArray();
  }
}
