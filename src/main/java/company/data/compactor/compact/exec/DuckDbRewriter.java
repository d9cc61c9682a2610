package company.data.compactor.compact.exec;

import company.data.compactor.compact.ZOrderKey;
import company.data.compactor.duckdb.Sql;
import company.data.compactor.error.Errors;
import company.data.compactor.model.Column;
import company.data.compactor.model.ColumnMappingMode;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSchema;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Rewrites a bin of local Parquet files into files near the target size with DuckDB and computes
 * each output's Delta statistics. Verification is not its business ({@link RewriteVerifier} reads
 * both sides with queries of its own). One instance holds one DuckDB connection bounded by {@link
 * RewriteSettings}; close it.
 */
final class DuckDbRewriter implements BinRewriter {

  private final Connection connection;

  /**
   * Opens DuckDB with its memory, threads, spill directory and home directory bounded to {@code
   * scratch} (Lambda has no HOME).
   */
  DuckDbRewriter(RewriteSettings settings, Path scratch) throws SQLException, IOException {
    connection =
        BoundedDuckDb.open(settings, scratch, "duckdb", "SET preserve_insertion_order = true");
  }

  /** One written file with its Delta stats. */
  record Written(Path path, long sizeBytes, long rows, String statsJson) {}

  /**
   * Writes the rows of {@code inputs} readers see (without those {@code deleted} names) into {@code
   * outDir}.
   *
   * @param zOrderColumns columns to cluster by with the Z-order key; empty keeps input order
   */
  @Override
  public List<Written> rewrite(
      TableLocation table,
      TableSchema schema,
      Map<String, String> properties,
      List<Path> inputs,
      DeletedRows deleted,
      Path outDir,
      long targetFileSizeBytes,
      String compression,
      List<String> zOrderColumns)
      throws SQLException, IOException {
    ColumnMappingMode mode = ColumnMappingMode.of(properties);
    List<Column> dataColumns;
    String query;
    long inputRows;
    String fieldIds = "";
    if (mode.isMapped()) {
      // Files name columns by physical name or field id: resolved per file, never by the schema's
      // names, and written under physical names with the schema's field ids.
      dataColumns = MappedProjection.dataColumns(schema);
      if (dataColumns.isEmpty()) {
        throw Errors.unsupportedTable(
            table, "it has no data columns outside its partition columns");
      }
      prepareDeleted(deleted);
      List<String> selects = new ArrayList<>();
      for (MappedProjection.Group group :
          MappedProjection.groups(table, schema, mode, FooterField.read(connection, inputs))) {
        selects.add("SELECT " + group.selectList() + " FROM " + rowsOf(group.files(), deleted));
      }
      String projected = "(" + String.join(" UNION ALL ", selects) + ")";
      inputRows = count(projected);
      fieldIds = MappedProjection.fieldIds(schema);
      List<String> names = dataColumns.stream().map(Column::physicalName).toList();
      query =
          zOrderColumns.isEmpty()
              ? "SELECT * FROM " + projected
              : zOrdered(projected, names, schema, zOrderColumns);
    } else {
      String source = liveRows(inputs, deleted);
      Projection projection = Projection.of(table, schema, columnsOf(source));
      if (projection.columns().isEmpty()) {
        throw Errors.unsupportedTable(
            table, "it has no data columns outside its partition columns");
      }
      dataColumns = projection.columns();
      inputRows = count(source);
      query =
          zOrderColumns.isEmpty()
              ? "SELECT " + projection.selectList() + " FROM " + source
              : zOrdered(
                  "(SELECT " + projection.selectList() + " FROM " + source + ")",
                  dataColumns.stream().map(Column::name).toList(),
                  schema,
                  zOrderColumns);
    }
    Files.createDirectories(outDir);
    long rowGroupRows = RowGroupSize.rows(targetFileSizeBytes, inputRows, totalSize(inputs));
    String format =
        "FORMAT parquet, COMPRESSION "
            + compression
            // zstd level 1: the same file size as the default level 3 here, about 25% faster.
            + (compression.equals("zstd") ? ", COMPRESSION_LEVEL 1" : "")
            + ", ROW_GROUP_SIZE "
            + rowGroupRows
            + fieldIds
            + SparkCalendar.copyOption(SparkCalendar.outputKeys(connection, inputs));
    try (Statement s = connection.createStatement()) {
      if (zOrderColumns.isEmpty()) {
        s.execute(
            "COPY ("
                + query
                + ") TO "
                + Sql.literal(outDir.toString())
                + " ("
                + format
                + ", FILE_SIZE_BYTES "
                + targetFileSizeBytes
                + ", FILENAME_PATTERN 'part-{uuid}', OVERWRITE_OR_IGNORE true)");
      } else {
        writeInOrder(s, query, outDir, format, targetFileSizeBytes, rowGroupRows);
        for (int j = 0; j < zOrderColumns.size(); j++) {
          s.execute("RESET VARIABLE " + boundaries(j));
        }
      }
    }
    List<Path> written;
    try (Stream<Path> files = Files.list(outDir)) {
      written =
          files.filter(p -> p.getFileName().toString().endsWith(".parquet")).sorted().toList();
    }
    List<StatsColumns.Leaf> statsColumns = StatsColumns.of(dataColumns, properties);
    List<Written> outputs = new ArrayList<>();
    for (Path file : written) {
      outputs.add(readBack(file, statsColumns));
    }
    return outputs;
  }

  /** The table of deleted rows the rewrite's query anti-joins. */
  static final String DELETED_TABLE = "__deleted_rows";

  /**
   * The rows readers see in {@code inputs}: all of them, or, when deletion vectors delete some,
   * those whose (file, {@code file_row_number}) is not in {@link #DELETED_TABLE}, which is filled
   * here. The file name and row number columns are dropped again, so the projection sees only the
   * files' own columns.
   */
  private String liveRows(List<Path> inputs, DeletedRows deleted) throws SQLException {
    prepareDeleted(deleted);
    return rowsOf(inputs, deleted);
  }

  /** Fills {@link #DELETED_TABLE} with the rows {@code deleted} names (drops it when none). */
  private void prepareDeleted(DeletedRows deleted) throws SQLException {
    if (deleted.isEmpty()) {
      try (Statement s = connection.createStatement()) {
        s.execute("DROP TABLE IF EXISTS " + Sql.identifier(DELETED_TABLE));
      }
    } else {
      deleted.writeTable(connection, DELETED_TABLE);
    }
  }

  /** The rows of {@code inputs} not in {@link #DELETED_TABLE}, after {@link #prepareDeleted}. */
  private static String rowsOf(List<Path> inputs, DeletedRows deleted) {
    if (deleted.isEmpty()) {
      return "read_parquet("
          + Sql.pathList(inputs)
          + ", hive_partitioning = false, union_by_name = true)";
    }
    return "(SELECT r.* EXCLUDE (__dv_file, file_row_number) FROM read_parquet("
        + Sql.pathList(inputs)
        + ", hive_partitioning = false, union_by_name = true, filename = '__dv_file',"
        + " file_row_number = true) r ANTI JOIN "
        + Sql.identifier(DELETED_TABLE)
        + " d ON d.filename = r.__dv_file AND d.row = r.file_row_number)";
  }

  private static long totalSize(List<Path> files) throws IOException {
    long bytes = 0;
    for (Path file : files) {
      bytes += Files.size(file);
    }
    return bytes;
  }

  /**
   * Writes the rows of {@code query} in its order, each file a consecutive slice of it. DuckDB
   * 2.0.0's parallel writer, when it rotates files by size, lets a thread's row groups land in the
   * next file (7 of 12 consecutive files overlapped in key range on a 200 MB partition), which
   * costs data skipping. So the rows are sorted in parallel into a temporary table (spilling to
   * scratch past the memory limit) and cut by row number into slices, each written to its own file
   * by DuckDB's order-preserving parallel writer. How many rows fill the target is measured, not
   * guessed: a probe of two row groups from the start of the order is written and its bytes per row
   * taken; the rows are then split into as many equal slices as it takes to keep each at or under
   * the target. On a 200 MB partition this writes in 1.5 s what one writer thread took 2.5 s for,
   * and the files come out equal in size instead of full ones and a remainder.
   */
  private void writeInOrder(
      Statement s, String query, Path outDir, String format, long targetBytes, long rowGroupRows)
      throws SQLException, IOException {
    s.execute("CREATE OR REPLACE TEMP TABLE __zsorted AS " + query);
    try {
      long rows;
      try (ResultSet rs = s.executeQuery("SELECT count(*) FROM __zsorted")) {
        rs.next();
        rows = rs.getLong(1);
      }
      if (rows == 0) {
        return;
      }
      boolean rowidShadowed;
      try (ResultSet rs =
          s.executeQuery(
              "SELECT count(*) FROM duckdb_columns() WHERE table_name = '__zsorted'"
                  + " AND lower(column_name) = 'rowid'")) {
        rs.next();
        rowidShadowed = rs.getLong(1) > 0;
      }
      long probeRows = Math.min(rows, 2 * rowGroupRows);
      Path probe = outDir.resolve("probe.tmp");
      s.execute(
          "COPY (SELECT * FROM __zsorted"
              + slice(0, probeRows, rowidShadowed)
              + ") TO "
              + Sql.literal(probe.toString())
              + " ("
              + format
              + ")");
      double bytesPerRow = (double) Files.size(probe) / probeRows;
      long files = slices(rows, bytesPerRow, targetBytes);
      if (probeRows == rows && files == 1) {
        // The probe holds every row, in order, written as the one output file would be (the same
        // slice, the same options): it is that file, and is not written twice. A small bin's case
        // (at most two row groups of rows): each of the demo's three.
        Files.move(probe, outDir.resolve("part-" + java.util.UUID.randomUUID() + ".parquet"));
        return;
      }
      Files.delete(probe);
      for (long i = 0; i < files; i++) {
        long from = rows * i / files;
        long to = rows * (i + 1) / files;
        Path file = outDir.resolve("part-" + java.util.UUID.randomUUID() + ".parquet");
        s.execute(
            "COPY (SELECT * FROM __zsorted"
                + slice(from, to, rowidShadowed)
                + ") TO "
                + Sql.literal(file.toString())
                + " ("
                + format
                + ")");
      }
    } finally {
      s.execute("DROP TABLE IF EXISTS __zsorted");
    }
  }

  /**
   * Rows {@code from} (inclusive) to {@code to} (exclusive) of the sorted table in insertion order:
   * by DuckDB's {@code rowid}, which prunes row groups, unless a data column named {@code rowid}
   * hides the pseudo-column; then by LIMIT/OFFSET over the insertion-ordered scan.
   */
  static String slice(long from, long to, boolean rowidShadowed) {
    if (rowidShadowed) {
      return " LIMIT " + (to - from) + " OFFSET " + from;
    }
    return " WHERE rowid >= " + from + " AND rowid < " + to;
  }

  /** How many equal slices keep {@code rows} at {@code bytesPerRow} at or under the target each. */
  static long slices(long rows, double bytesPerRow, long targetBytes) {
    return Math.max(1, (long) Math.ceil(rows * bytesPerRow / targetBytes));
  }

  /**
   * Reservoir sample per column for the quantile boundaries, as Delta Lake samples for its ranges.
   */
  static final int QUANTILE_SAMPLE_ROWS = 100_000;

  /**
   * The rows ordered by the Z-order key. One column: the key is a monotonic function of the value,
   * so the rows are ordered by the value itself (the same clustering, ties ordered too, without
   * bucketing). Several columns: per column, the distinct sampled quantile boundaries, sorted, go
   * into a session variable as one list; each row's bucket (how many boundaries are at or below its
   * value; NULL: 0) is found by a branch-free binary search over that list, ten halving steps, one
   * projection each; the interleaved bucket bits ({@link ZOrderKey#sql}) order the rows. The inputs
   * are streamed, not copied into DuckDB; its external sort stays inside the memory limit, spilling
   * to scratch. (An ASOF join against the boundaries gave the same buckets but sorted the whole
   * input once per column and ran out of memory under a limit smaller than the data.)
   */
  private String zOrdered(
      String projected, List<String> written, TableSchema schema, List<String> columns)
      throws SQLException {
    String names =
        written.stream().map(Sql::identifier).collect(java.util.stream.Collectors.joining(", "));
    if (columns.size() == 1) {
      return "SELECT "
          + names
          + " FROM "
          + projected
          + " ORDER BY "
          + orderValue(schema, columns.get(0))
          + " NULLS FIRST";
    }
    try (Statement s = connection.createStatement()) {
      for (int j = 0; j < columns.size(); j++) {
        // The sample's values where the rank crosses each i/BUCKETS: at most BUCKETS - 1 distinct
        // boundaries, from one sort (quantile_disc with a thousand fractions took seconds).
        s.execute(
            "SET VARIABLE "
                + boundaries(j)
                + " = ("
                + " WITH sample AS (SELECT v FROM (SELECT "
                + orderValue(schema, columns.get(j))
                + " AS v FROM "
                + projected
                + ") WHERE v IS NOT NULL USING SAMPLE reservoir("
                + QUANTILE_SAMPLE_ROWS
                + " ROWS) REPEATABLE (42)),"
                + " ranked AS (SELECT v, row_number() OVER (ORDER BY v) AS rn, count(*) OVER () AS n FROM sample)"
                + " SELECT list(lo ORDER BY lo) FROM (SELECT DISTINCT v AS lo FROM ranked"
                + " WHERE rn > 1 AND ((rn - 1) * "
                + ZOrderKey.BUCKETS
                + ") // n <> ((rn - 2) * "
                + ZOrderKey.BUCKETS
                + ") // n))");
      }
    }
    List<String> values = columns.stream().map(c -> orderValue(schema, c)).toList();
    List<String> buckets =
        java.util.stream.IntStream.range(0, columns.size())
            .mapToObj(DuckDbRewriter::bucket)
            .toList();
    return "SELECT "
        + names
        + " FROM "
        + withBuckets(projected, values)
        + " ORDER BY "
        + ZOrderKey.sql(buckets);
  }

  /**
   * {@code relation} with a column {@link #bucket}(j) per value expression: how many entries of the
   * sorted, distinct list in the session variable {@link #boundaries}(j) are at or below the value
   * (NULL, or no list: 0). Step down from half the bucket count: a bucket moves up by the step when
   * the boundary that far above it is at or below the value (past the list's end it stays).
   */
  static String withBuckets(String relation, List<String> values) {
    List<String> zeros = new ArrayList<>();
    for (int j = 0; j < values.size(); j++) {
      zeros.add("0 AS " + bucket(j));
    }
    String searched = "(SELECT *, " + String.join(", ", zeros) + " FROM " + relation + ")";
    for (int step = ZOrderKey.BUCKETS / 2; step >= 1; step /= 2) {
      List<String> moves = new ArrayList<>();
      for (int j = 0; j < values.size(); j++) {
        moves.add(
            bucket(j)
                + " + CASE WHEN coalesce("
                + values.get(j)
                + " >= getvariable('"
                + boundaries(j)
                + "')["
                + bucket(j)
                + " + "
                + step
                + "], false) THEN "
                + step
                + " ELSE 0 END AS "
                + bucket(j));
      }
      searched = "(SELECT * REPLACE (" + String.join(", ", moves) + ") FROM " + searched + ")";
    }
    return searched;
  }

  static String boundaries(int column) {
    return "__zorder_boundaries_" + column;
  }

  static String bucket(int column) {
    return "__zorder_bucket_" + column;
  }

  /**
   * The column's value in an orderable form: booleans as 0/1 (quantiles need numbers or text). The
   * column is named by the schema's name and read under the name it is written with (its physical
   * name under column mapping).
   */
  private static String orderValue(TableSchema schema, String column) {
    String ref = Sql.identifier(schema.physicalName(column));
    String type = schema.column(column).map(Column::type).orElse("");
    return type.equals("boolean") ? "CAST(" + ref + " AS TINYINT)" : ref;
  }

  private Set<String> columnsOf(String source) throws SQLException {
    Set<String> names = new HashSet<>();
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("DESCRIBE SELECT * FROM " + source)) {
      while (rs.next()) {
        names.add(rs.getString("column_name"));
      }
    }
    return names;
  }

  /**
   * Rows of the inputs readers see, for sizing row groups (from the Parquet footers, no scan, when
   * no row is deleted).
   */
  private long count(String source) throws SQLException {
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM " + source)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /**
   * The written file's rows and Delta stats, in one query over it; counts and bounds come from the
   * footer where DuckDB wrote statistics.
   */
  private Written readBack(Path file, List<StatsColumns.Leaf> leaves)
      throws SQLException, IOException {
    List<String> items = new ArrayList<>();
    items.add("count(*)");
    for (StatsColumns.Leaf leaf : leaves) {
      Column column = leaf.column();
      String c = reference(leaf);
      items.add("count(*) - count(" + c + ")");
      items.add(minMax(column, c, "min"));
      items.add(minMax(column, c, "max"));
    }
    String sql =
        "SELECT "
            + String.join(", ", items)
            + " FROM read_parquet("
            + Sql.literal(file.toString())
            + ", hive_partitioning = false)";
    List<ColumnStats> stats = new ArrayList<>();
    long rows;
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      rows = rs.getLong(1);
      int i = 2;
      for (StatsColumns.Leaf leaf : leaves) {
        Column column = leaf.column();
        long nulls = rs.getLong(i);
        Object min = value(column, rs, i + 1);
        Object max = value(column, rs, i + 2);
        i += 3;
        // NaN or an infinity in a float column leaves no bounds (JSON has neither). DuckDB orders
        // NaN above +inf, so the column holds one exactly when its maximum is NaN or infinite or
        // its minimum is infinite. Asked of min and max alone, DuckDB answers from the Parquet
        // statistics it wrote (it writes none for a column holding NaN or an infinity, and then
        // scans), instead of decoding every column of the file again.
        boolean unordered = isFloat(column) && (nonFinite(min) || nonFinite(max));
        stats.add(
            unordered
                ? new ColumnStats(leaf, null, null, nulls)
                : new ColumnStats(leaf, min, max, nulls));
      }
    }
    return new Written(file, Files.size(file), rows, StatsJson.format(rows, stats));
  }

  /** The SQL for a leaf: the column, or the field reached through the structs above it. */
  private static String reference(StatsColumns.Leaf leaf) {
    String ref = Sql.identifier(leaf.path().get(0));
    for (String field : leaf.path().subList(1, leaf.path().size())) {
      ref = "struct_extract(" + ref + ", " + Sql.literal(field) + ")";
    }
    return ref;
  }

  private static boolean nonFinite(Object bound) {
    return bound instanceof Double d && !Double.isFinite(d);
  }

  private static boolean isFloat(Column column) {
    return column.type().equals("float") || column.type().equals("double");
  }

  /** The aggregate for one bound, or NULL for types Delta keeps no bounds for. */
  private static String minMax(Column column, String c, String fn) {
    String type = column.type();
    return switch (type) {
      case "byte", "short", "integer", "long", "float", "double", "string" -> fn + "(" + c + ")";
      case "date" -> "CAST(" + fn + "(" + c + ") AS VARCHAR)";
      case "timestamp", "timestamp_ntz" -> "epoch_us(" + fn + "(" + c + "))";
      default -> type.startsWith("decimal(") ? "CAST(" + fn + "(" + c + ") AS VARCHAR)" : "NULL";
    };
  }

  private static Object value(Column column, ResultSet rs, int index) throws SQLException {
    if (rs.getObject(index) == null) {
      return null;
    }
    String type = column.type();
    return switch (type) {
      case "byte", "short", "integer", "long", "timestamp", "timestamp_ntz" -> rs.getLong(index);
      case "float", "double" -> rs.getDouble(index);
      case "string", "date" -> rs.getString(index);
      default -> type.startsWith("decimal(") ? new BigDecimal(rs.getString(index)) : null;
    };
  }

  @Override
  public void close() throws SQLException {
    connection.close();
  }
}
