package company.data.compactor.compact.exec;

import company.data.compactor.duckdb.Sql;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * One field of a Parquet file's schema as its footer spells it: name, field id, the DuckDB type it
 * reads as and, for a group, its children. Read from DuckDB's {@code parquet_schema}, which lists a
 * file's schema elements depth-first with the number of children of each.
 *
 * @param name the name in the file
 * @param fieldId the Parquet field id, if the writer set one
 * @param duckDbType the DuckDB type the field reads as
 * @param children a group's fields (a struct's fields; a list's or map's repeated group)
 */
record FooterField(
    String name, OptionalInt fieldId, String duckDbType, List<FooterField> children) {

  FooterField {
    children = List.copyOf(children);
  }

  /** Whether a struct sits inside a list or map at or below this field. */
  boolean nestsStructInCollection() {
    boolean collection = duckDbType.endsWith("[]") || duckDbType.startsWith("MAP(");
    if (collection) {
      return duckDbType.contains("STRUCT(");
    }
    return children.stream().anyMatch(FooterField::nestsStructInCollection);
  }

  /**
   * The top-level fields of each file, keyed by the file's path as given.
   *
   * @throws SQLException when a footer cannot be read
   */
  static Map<Path, List<FooterField>> read(Connection connection, List<Path> files)
      throws SQLException {
    Map<String, List<Object[]>> elements = new LinkedHashMap<>();
    String sql =
        "SELECT file_name, name, field_id, coalesce(num_children, 0), coalesce(duckdb_type, '')"
            + " FROM parquet_schema("
            + Sql.pathList(files)
            + ") ORDER BY file_name, column_id";
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        Object id = rs.getObject(3);
        elements
            .computeIfAbsent(rs.getString(1), k -> new ArrayList<>())
            .add(
                new Object[] {
                  rs.getString(2),
                  id == null ? OptionalInt.empty() : OptionalInt.of(((Number) id).intValue()),
                  rs.getLong(4),
                  rs.getString(5)
                });
      }
    }
    Map<Path, List<FooterField>> fields = new LinkedHashMap<>();
    for (Path file : files) {
      List<Object[]> flat = elements.get(file.toString());
      if (flat == null || flat.isEmpty()) {
        throw new SQLException("file " + file.getFileName() + " has no readable Parquet schema");
      }
      int[] at = {0};
      fields.put(file, parse(flat, at).children());
    }
    return fields;
  }

  private static FooterField parse(List<Object[]> flat, int[] at) {
    Object[] e = flat.get(at[0]++);
    List<FooterField> children = new ArrayList<>();
    long count = (Long) e[2];
    for (long i = 0; i < count && at[0] < flat.size(); i++) {
      children.add(parse(flat, at));
    }
    return new FooterField((String) e[0], (OptionalInt) e[1], (String) e[3], children);
  }
}
