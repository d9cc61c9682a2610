package company.data.compactor.delta.kernel;

import company.data.compactor.duckdb.DuckDbConnections;
import company.data.compactor.duckdb.Sql;
import company.data.compactor.storage.Scratch;
import company.data.compactor.storage.Storage;
import company.data.compactor.storage.StoredObject;
import company.data.compactor.storage.Utf8Order;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.expressions.Column;
import io.delta.kernel.expressions.Literal;
import io.delta.kernel.statistics.DataFileStatistics;
import io.delta.kernel.types.BooleanType;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.DateType;
import io.delta.kernel.types.DoubleType;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.DataFileStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.UUID;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * Writes the data file of one append with DuckDB instead of kernel's Parquet writer, for {@link
 * KernelTableWriter}: the same physical batch kernel would write (partition columns already
 * dropped), one Parquet file per batch in the target directory, and the Delta stats kernel's writer
 * records (row count, null counts, exact minimum and maximum; null bounds for a column of NULLs,
 * nothing for a double column holding NaN) computed from the rows themselves. Kernel's writer
 * spends most of a short run starting up (about 0.45 s for the demo's 30 appends, against 0.05 s
 * here); the commits stay kernel's.
 *
 * <p>Only plain columns are written here ({@link #canWrite}): string, integer, long, double,
 * boolean and date, without column-mapping metadata (field ids). Anything else is the caller's to
 * write with kernel. Strings are ordered by their UTF-8 bytes, as Parquet and the Delta protocol
 * order them; a double column holding NaN gets no bounds (it has no order). One instance holds one
 * in-memory DuckDB database and a private temporary directory; close it.
 */
final class DuckDbDataFiles implements AutoCloseable {

  private final Storage storage;
  private final Connection connection;
  private final Scratch scratch;

  private DuckDbDataFiles(Storage storage, Connection connection, Scratch scratch) {
    this.storage = storage;
    this.connection = connection;
    this.scratch = scratch;
  }

  /**
   * Opens a DuckDB database and a {@link Scratch} directory of its own under {@code scratchRoot}
   * (files are written there, then published through storage); the caller closes both.
   */
  static DuckDbDataFiles open(Storage storage, Path scratchRoot) throws IOException {
    Scratch scratch;
    try {
      scratch = Scratch.create(scratchRoot);
    } catch (java.io.UncheckedIOException e) {
      throw e.getCause();
    }
    try {
      Connection connection = DuckDbConnections.inMemory();
      try (Statement s = connection.createStatement()) {
        // Lambda has no HOME; a few rows never spill, but DuckDB wants a home anyway.
        s.execute("SET home_directory = " + Sql.literal(scratch.dir().toString()));
        s.execute("SET threads = 1");
      } catch (SQLException e) {
        connection.close();
        throw e;
      }
      return new DuckDbDataFiles(storage, connection, scratch);
    } catch (SQLException e) {
      scratch.close();
      throw new IOException("opening DuckDB to write data files", e);
    }
  }

  /** Whether every column of {@code physical} is one this writer writes as kernel would. */
  static boolean canWrite(StructType physical) {
    for (StructField field : physical.fields()) {
      DataType type = field.getDataType();
      boolean plain =
          type instanceof StringType
              || type instanceof IntegerType
              || type instanceof LongType
              || type instanceof DoubleType
              || type instanceof BooleanType
              || type instanceof DateType;
      if (!plain
          || field.getMetadata().contains(KernelTypes.ID_KEY)
          || field.getMetadata().contains(KernelTypes.PHYSICAL_NAME_KEY)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Writes the selected rows of {@code batch} (see {@link #canWrite}) as one Parquet file in {@code
   * directory} (kernel's target directory, ending in {@code /}), published whole through storage.
   *
   * @param statsColumns the top-level columns kernel asks stats for
   * @return the written file with its size, time and stats
   */
  DataFileStatus write(String directory, FilteredColumnarBatch batch, List<Column> statsColumns)
      throws IOException {
    ColumnarBatch data = batch.getData();
    StructType schema = data.getSchema();
    int[] rows = selectedRows(batch);
    String table = "append_" + UUID.randomUUID().toString().replace('-', '_');
    Path local = scratch.dir().resolve(UUID.randomUUID() + ".parquet");
    try (Statement s = connection.createStatement()) {
      // The rows go into positional columns c0, c1, ...; the file names them as kernel does.
      StringJoiner columns = new StringJoiner(", ");
      StringJoiner projection = new StringJoiner(", ");
      for (int c = 0; c < schema.length(); c++) {
        columns.add("c" + c + " " + duckDbType(schema.at(c).getDataType()));
        projection.add("c" + c + " AS " + Sql.identifier(schema.at(c).getName()));
      }
      s.execute("CREATE TABLE " + table + " (" + columns + ")");
      try (DuckDBAppender appender =
          ((DuckDBConnection) connection).createAppender(DuckDBConnection.DEFAULT_SCHEMA, table)) {
        for (int row : rows) {
          appender.beginRow();
          for (int c = 0; c < schema.length(); c++) {
            append(appender, data.getColumnVector(c), row);
          }
          appender.endRow();
        }
      }
      s.execute(
          "COPY (SELECT "
              + projection
              + " FROM "
              + table
              + ") TO "
              + Sql.literal(local.toString())
              + " (FORMAT parquet, COMPRESSION snappy)");
      s.execute("DROP TABLE " + table);
    } catch (SQLException e) {
      Files.deleteIfExists(local);
      throw new IOException("writing a data file of " + rows.length + " rows with DuckDB", e);
    }
    String path = storageDirectory(directory) + "/" + local.getFileName();
    try {
      storage.publishFile(local, path);
    } finally {
      Files.deleteIfExists(local);
    }
    StoredObject written;
    try {
      written = storage.stat(path);
    } catch (IOException | RuntimeException e) {
      // Published but not described: no commit will name it, so it goes (best effort).
      try {
        storage.deleteAll(List.of(path));
      } catch (IOException | RuntimeException d) {
        e.addSuppressed(d);
      }
      throw e;
    }
    return new DataFileStatus(
        path,
        written.sizeBytes(),
        written.modificationTimeMillis(),
        Optional.of(statistics(data, rows, statsColumns)));
  }

  /**
   * Kernel's target directory, which it hands out percent-encoded (a table under {@code /a b} gets
   * {@code file:/a%20b/...}, a partition value {@code x%y} the directory {@code p=x%2525y}), as the
   * raw path storage takes and kernel expects of a written file: kernel relativizes that path
   * against the table's root before it logs it, and a path still encoded is outside the root.
   */
  static String storageDirectory(String directory) {
    String raw;
    try {
      raw = new org.apache.hadoop.fs.Path(java.net.URI.create(directory)).toString();
    } catch (IllegalArgumentException notEncoded) {
      raw = directory;
    }
    return raw.endsWith("/") ? raw.substring(0, raw.length() - 1) : raw;
  }

  /**
   * The stats of the selected rows: every stats column gets a null count; bounds where it has a
   * non-null value that can be ordered.
   */
  static DataFileStatistics statistics(ColumnarBatch data, int[] rows, List<Column> statsColumns) {
    StructType schema = data.getSchema();
    Map<Column, Literal> min = new HashMap<>();
    Map<Column, Literal> max = new HashMap<>();
    Map<Column, Long> nulls = new HashMap<>();
    for (Column column : statsColumns) {
      if (column.getNames().length != 1) {
        continue;
      }
      int ordinal = schema.indexOf(column.getNames()[0]);
      if (ordinal < 0) {
        continue;
      }
      ColumnVector vector = data.getColumnVector(ordinal);
      DataType type = vector.getDataType();
      long nullCount = 0;
      Object low = null;
      Object high = null;
      boolean unordered = false;
      for (int row : rows) {
        if (vector.isNullAt(row)) {
          nullCount++;
          continue;
        }
        Object value = value(vector, row);
        if (value instanceof Double d && d.isNaN()) {
          unordered = true;
        }
        if (low == null || compare(type, value, low) < 0) {
          low = value;
        }
        if (high == null || compare(type, value, high) > 0) {
          high = value;
        }
      }
      if (unordered) {
        // As kernel's writer does for a column holding NaN: no stats for it at all.
        continue;
      }
      nulls.put(column, nullCount);
      if (low == null) {
        // As kernel's writer records a column of NULLs: bounds that say nothing.
        min.put(column, Literal.ofNull(type));
        max.put(column, Literal.ofNull(type));
      } else {
        min.put(column, literal(type, low));
        max.put(column, literal(type, high));
      }
    }
    return new DataFileStatistics(rows.length, min, max, nulls, Optional.empty());
  }

  private static int[] selectedRows(FilteredColumnarBatch batch) {
    int size = batch.getData().getSize();
    Optional<ColumnVector> selection = batch.getSelectionVector();
    if (selection.isEmpty()) {
      int[] all = new int[size];
      Arrays.setAll(all, i -> i);
      return all;
    }
    List<Integer> kept = new ArrayList<>();
    for (int row = 0; row < size; row++) {
      if (!selection.get().isNullAt(row) && selection.get().getBoolean(row)) {
        kept.add(row);
      }
    }
    return kept.stream().mapToInt(Integer::intValue).toArray();
  }

  private static Object value(ColumnVector vector, int row) {
    DataType type = vector.getDataType();
    if (type instanceof StringType) {
      return vector.getString(row);
    } else if (type instanceof IntegerType || type instanceof DateType) {
      return vector.getInt(row);
    } else if (type instanceof LongType) {
      return vector.getLong(row);
    } else if (type instanceof DoubleType) {
      return vector.getDouble(row);
    } else {
      return vector.getBoolean(row);
    }
  }

  @SuppressWarnings("unchecked")
  private static int compare(DataType type, Object a, Object b) {
    if (type instanceof StringType) {
      return Utf8Order.compare((String) a, (String) b);
    }
    return ((Comparable<Object>) a).compareTo(b);
  }

  private static Literal literal(DataType type, Object value) {
    if (type instanceof StringType) {
      return Literal.ofString((String) value);
    } else if (type instanceof DateType) {
      return Literal.ofDate((Integer) value);
    } else if (type instanceof IntegerType) {
      return Literal.ofInt((Integer) value);
    } else if (type instanceof LongType) {
      return Literal.ofLong((Long) value);
    } else if (type instanceof DoubleType) {
      return Literal.ofDouble((Double) value);
    } else {
      return Literal.ofBoolean((Boolean) value);
    }
  }

  private static void append(DuckDBAppender appender, ColumnVector vector, int row)
      throws SQLException {
    if (vector.isNullAt(row)) {
      appender.appendNull();
      return;
    }
    DataType type = vector.getDataType();
    if (type instanceof StringType) {
      appender.append(vector.getString(row));
    } else if (type instanceof DateType) {
      appender.append(LocalDate.ofEpochDay(vector.getInt(row)));
    } else if (type instanceof IntegerType) {
      appender.append(vector.getInt(row));
    } else if (type instanceof LongType) {
      appender.append(vector.getLong(row));
    } else if (type instanceof DoubleType) {
      appender.append(vector.getDouble(row));
    } else {
      appender.append(vector.getBoolean(row));
    }
  }

  private static String duckDbType(DataType type) {
    if (type instanceof StringType) {
      return "VARCHAR";
    } else if (type instanceof DateType) {
      return "DATE";
    } else if (type instanceof IntegerType) {
      return "INTEGER";
    } else if (type instanceof LongType) {
      return "BIGINT";
    } else if (type instanceof DoubleType) {
      return "DOUBLE";
    } else {
      return "BOOLEAN";
    }
  }

  @Override
  public void close() throws IOException {
    try {
      connection.close();
    } catch (SQLException e) {
      throw new IOException("closing DuckDB", e);
    } finally {
      scratch.close();
    }
  }
}
