package company.data.compactor.compact.exec;

import company.data.compactor.duckdb.Sql;
import company.data.compactor.error.Errors;
import company.data.compactor.model.Column;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The select list a rewrite writes, built from the Delta schema, never from what the input files
 * happen to contain: every data column in schema order (partition columns are not written), each
 * cast to the DuckDB type of its Delta type. Delta {@code timestamp} becomes {@code TIMESTAMPTZ}
 * (written UTC-adjusted; naive inputs such as Spark's INT96 are read as UTC) and {@code
 * timestamp_ntz} stays naive. A column no input file has (added later by schema evolution) is
 * written as typed NULLs. Input columns match schema columns case-insensitively, as Spark's Delta
 * reader matches them.
 */
final class Projection {

  private final List<Column> columns;
  private final String selectList;

  private Projection(List<Column> columns, String selectList) {
    this.columns = columns;
    this.selectList = selectList;
  }

  /**
   * @param inputColumns names of the columns present in the input files, as DuckDB spells them
   */
  static Projection of(TableLocation table, TableSchema schema, Set<String> inputColumns) {
    List<Column> data = new ArrayList<>();
    List<String> items = new ArrayList<>();
    for (Column column : schema.columns()) {
      if (schema.isPartitionColumn(column.name())) {
        continue;
      }
      data.add(column);
      String type = duckDbType(column.type());
      String name = Sql.identifier(column.name());
      java.util.Optional<String> found =
          inputColumns.stream().filter(c -> c.equalsIgnoreCase(column.name())).findFirst();
      if (found.isPresent()) {
        // Matched as Delta readers on Spark match: case-insensitively (the verifier refuses
        // files where two columns would match).
        String read = Sql.identifier(found.get());
        items.add((type == null ? read : "CAST(" + read + " AS " + type + ")") + " AS " + name);
      } else if (type != null) {
        items.add("CAST(NULL AS " + type + ") AS " + name);
      } else {
        throw Errors.unsupportedTable(
            table,
            "nested column "
                + column.name()
                + " is in the schema but in none of the files being"
                + " rewritten; rewriting it is not supported yet");
      }
    }
    return new Projection(List.copyOf(data), String.join(", ", items));
  }

  /** The data columns written, in order. */
  List<Column> columns() {
    return columns;
  }

  /** The SQL select list. */
  String selectList() {
    return selectList;
  }

  /** DuckDB type of a Delta primitive type; null for nested types, which pass through as read. */
  static String duckDbType(String deltaType) {
    return switch (deltaType) {
      case "byte" -> "TINYINT";
      case "short" -> "SMALLINT";
      case "integer" -> "INTEGER";
      case "long" -> "BIGINT";
      case "float" -> "FLOAT";
      case "double" -> "DOUBLE";
      case "boolean" -> "BOOLEAN";
      case "string" -> "VARCHAR";
      case "binary" -> "BLOB";
      case "date" -> "DATE";
      case "timestamp" -> "TIMESTAMPTZ";
      case "timestamp_ntz" -> "TIMESTAMP";
      default ->
          deltaType.startsWith("decimal(") ? deltaType.toUpperCase(java.util.Locale.ROOT) : null;
    };
  }
}
