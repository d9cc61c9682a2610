package company.data.compactor.testing;

import company.data.compactor.model.DataFile;
import company.data.compactor.storage.LocalStorage;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/** An independent reader for tests: DuckDB over the local data files a snapshot lists. */
public final class DuckDb {

  private DuckDb() {}

  /** Row count and sum of a double column over {@code files}, read by DuckDB. */
  public record CountAndSum(long rows, double sum) {}

  public static CountAndSum countAndSum(List<DataFile> files, String column) throws SQLException {
    String sql =
        "SELECT count(*), sum(\""
            + column
            + "\") FROM read_parquet(["
            + paths(files)
            + "], hive_partitioning=false)";
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:");
        PreparedStatement statement = connection.prepareStatement(sql);
        ResultSet result = statement.executeQuery()) {
      result.next();
      return new CountAndSum(result.getLong(1), result.getDouble(2));
    }
  }

  /**
   * Row count and an order-independent checksum over {@code columns} (sum of row hashes), read by
   * DuckDB independently of the compactor's own verification.
   */
  public static String checksum(List<DataFile> files, List<String> columns) throws SQLException {
    String cols = String.join(", ", columns.stream().map(c -> "\"" + c + "\"").toList());
    String sql =
        "SELECT count(*) || ':' || CAST(sum(hash("
            + cols
            + ")) AS VARCHAR) FROM read_parquet(["
            + paths(files)
            + "], hive_partitioning=false, union_by_name=true)";
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:");
        PreparedStatement statement = connection.prepareStatement(sql);
        ResultSet result = statement.executeQuery()) {
      result.next();
      return result.getString(1);
    }
  }

  /**
   * The min and max of a BIGINT column per row group of one file, in the file's row-group order,
   * read from the Parquet footer.
   */
  public static List<long[]> rowGroupRanges(DataFile file, String column) throws SQLException {
    String sql =
        "SELECT CAST(stats_min_value AS BIGINT), CAST(stats_max_value AS BIGINT) FROM parquet_metadata("
            + paths(List.of(file))
            + ") WHERE path_in_schema = ? ORDER BY row_group_id";
    List<long[]> ranges = new java.util.ArrayList<>();
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:");
        PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.setString(1, column);
      try (ResultSet result = statement.executeQuery()) {
        while (result.next()) {
          ranges.add(new long[] {result.getLong(1), result.getLong(2)});
        }
      }
    }
    return ranges;
  }

  /**
   * How many of {@code files} hold rows of each value of {@code column}, averaged over its values,
   * read from the data (not from the statistics, which Delta truncates for long strings).
   */
  public static double averageFilesPerValue(List<DataFile> files, String column)
      throws SQLException {
    String sql =
        "SELECT avg(n) FROM (SELECT count(DISTINCT filename) AS n FROM read_parquet(["
            + paths(files)
            + "], hive_partitioning=false, filename=true) GROUP BY \""
            + column
            + "\")";
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:");
        PreparedStatement statement = connection.prepareStatement(sql);
        ResultSet result = statement.executeQuery()) {
      result.next();
      return result.getDouble(1);
    }
  }

  private static String paths(List<DataFile> files) {
    return files.stream()
        .map(f -> "'" + LocalStorage.toPath(f.path()).toString().replace("'", "''") + "'")
        .reduce((a, b) -> a + ", " + b)
        .orElseThrow();
  }
}
