package company.data.compactor.compact.exec;

import company.data.compactor.duckdb.Sql;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * The rows each local input file's deletion vector deletes: 0-based positions in the file's row
 * order (DuckDB's {@code file_row_number}), keyed by the local path DuckDB reads the file by. Files
 * without a deletion vector are absent. Loaded once per bin from the log's vectors; the rewriter
 * drops these rows, the verifier subtracts them, each in a query of its own.
 */
final class DeletedRows {

  /** No file of the bin has deleted rows. */
  static final DeletedRows NONE = new DeletedRows(Map.of());

  private final Map<Path, long[]> byFile;

  private DeletedRows(Map<Path, long[]> byFile) {
    this.byFile = byFile;
  }

  /** The deleted rows of {@code byFile}'s files; files with none may be left out. */
  static DeletedRows of(Map<Path, long[]> byFile) {
    Map<Path, long[]> kept = new LinkedHashMap<>();
    byFile.forEach(
        (file, rows) -> {
          if (rows.length > 0) {
            kept.put(file, rows.clone());
          }
        });
    return new DeletedRows(java.util.Collections.unmodifiableMap(kept));
  }

  /** Whether no row of any file is deleted. */
  boolean isEmpty() {
    return byFile.isEmpty();
  }

  /** How many rows of {@code file} are deleted. */
  long count(Path file) {
    long[] rows = byFile.get(file);
    return rows == null ? 0 : rows.length;
  }

  /**
   * Creates table {@code name}{@code (filename VARCHAR, row BIGINT)} in {@code connection} holding
   * one line per deleted row, the file named as {@link Sql#pathList} spells it to {@code
   * read_parquet}, which is how its {@code filename} column reports it.
   */
  void writeTable(Connection connection, String name) throws SQLException {
    try (Statement s = connection.createStatement()) {
      s.execute(
          "CREATE OR REPLACE TABLE "
              + Sql.identifier(name)
              + " (filename VARCHAR NOT NULL, row BIGINT NOT NULL)");
    }
    try (DuckDBAppender appender =
        connection
            .unwrap(DuckDBConnection.class)
            .createAppender(DuckDBConnection.DEFAULT_SCHEMA, name)) {
      for (Map.Entry<Path, long[]> file : byFile.entrySet()) {
        String filename = file.getKey().toString();
        for (long row : file.getValue()) {
          appender.beginRow().append(filename).append(row).endRow();
        }
      }
    }
  }
}
