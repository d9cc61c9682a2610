package company.data.compactor.compact.exec;

import company.data.compactor.duckdb.Sql;
import company.data.compactor.error.Errors;
import company.data.compactor.model.Column;
import company.data.compactor.model.ColumnMappingMode;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSchema;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The select lists a rewrite of a column-mapped table writes (Delta's {@code columnMapping}, modes
 * {@code name} and {@code id}). Files name columns by physical name, never by the schema's names,
 * so a file's field is matched to a schema column by its physical name ({@code name} mode,
 * case-insensitively as Spark matches) or by its Parquet field id ({@code id} mode; by physical
 * name for a column without an id), at every level of nested structs. What follows from that: the
 * data of a dropped column (still in old files under its physical name) is not carried over, a
 * column added later (even under a dropped column's name: it gets a new physical name) reads as
 * NULL from old files, and renames change nothing in the files. Outputs name every column and
 * struct field by its physical name, cast to the DuckDB type of its Delta type as {@link
 * Projection} casts, and carry the schema's field ids ({@link #fieldIds}).
 *
 * <p>Files whose fields resolve alike form one group with one select list; the rewrite reads the
 * union of the groups.
 */
final class MappedProjection {

  /**
   * Files read with one select list.
   *
   * @param files the files
   * @param selectList their columns in schema order, each aliased to its physical name
   */
  record Group(List<Path> files, String selectList) {
    Group {
      files = List.copyOf(files);
    }
  }

  private MappedProjection() {}

  /**
   * The groups of {@code files}, each with its select list.
   *
   * @throws company.data.compactor.error.CompactorException when a struct sits inside a list or map
   *     (not supported under column mapping yet), or a nested column no file has must be written as
   *     NULL
   */
  static List<Group> groups(
      TableLocation table,
      TableSchema schema,
      ColumnMappingMode mode,
      Map<Path, List<FooterField>> files) {
    Map<String, List<Path>> byList = new LinkedHashMap<>();
    for (Map.Entry<Path, List<FooterField>> file : files.entrySet()) {
      List<String> items = new ArrayList<>();
      for (Column column : dataColumns(schema)) {
        Optional<FooterField> field = match(column, file.getValue(), mode);
        if (field.isPresent() && field.get().nestsStructInCollection()) {
          throw Errors.unsupportedTable(
              table,
              "column "
                  + column.name()
                  + " holds a struct inside an array or map, and the table uses column mapping;"
                  + " rewriting such columns by physical name is not supported yet. Nothing of"
                  + " this partition was written");
        }
        items.add(
            value(
                    table,
                    column,
                    field,
                    Sql.identifier(field.map(FooterField::name).orElse("")),
                    mode)
                + " AS "
                + Sql.identifier(column.physicalName()));
      }
      byList.computeIfAbsent(String.join(", ", items), k -> new ArrayList<>()).add(file.getKey());
    }
    List<Group> groups = new ArrayList<>();
    byList.forEach((list, paths) -> groups.add(new Group(paths, list)));
    return groups;
  }

  /** The data columns (not partition columns) in schema order. */
  static List<Column> dataColumns(TableSchema schema) {
    return schema.columns().stream().filter(c -> !schema.isPartitionColumn(c.name())).toList();
  }

  /**
   * The file's field for {@code column}: by field id in {@code id} mode (when the column has one),
   * else by physical name, case-insensitively.
   */
  static Optional<FooterField> match(
      Column column, List<FooterField> fields, ColumnMappingMode mode) {
    if (mode == ColumnMappingMode.ID && column.fieldId().isPresent()) {
      int id = column.fieldId().getAsInt();
      return fields.stream()
          .filter(f -> f.fieldId().isPresent() && f.fieldId().getAsInt() == id)
          .findFirst();
    }
    return fields.stream()
        .filter(f -> f.name().equalsIgnoreCase(column.physicalName()))
        .findFirst();
  }

  /** The expression writing {@code column} from {@code field} (reached by {@code ref}). */
  private static String value(
      TableLocation table,
      Column column,
      Optional<FooterField> field,
      String ref,
      ColumnMappingMode mode) {
    if (field.isEmpty()) {
      return "CAST(NULL AS " + duckDbType(table, column) + ")";
    }
    if (column.isStruct()) {
      List<String> members = new ArrayList<>();
      for (Column child : column.fields()) {
        Optional<FooterField> sub = match(child, field.get().children(), mode);
        String subRef =
            "struct_extract("
                + ref
                + ", "
                + Sql.literal(sub.map(FooterField::name).orElse(""))
                + ")";
        members.add(
            Sql.identifier(child.physicalName()) + " := " + value(table, child, sub, subRef, mode));
      }
      // struct_pack of a NULL struct's fields would be a struct of NULLs, not NULL.
      return "CASE WHEN "
          + ref
          + " IS NULL THEN NULL ELSE struct_pack("
          + String.join(", ", members)
          + ") END";
    }
    String type = Projection.duckDbType(column.type());
    return type == null ? ref : "CAST(" + ref + " AS " + type + ")";
  }

  /** The DuckDB type a column is written as, structs by physical field names. */
  private static String duckDbType(TableLocation table, Column column) {
    if (column.isStruct()) {
      return column.fields().stream()
          .map(f -> Sql.identifier(f.physicalName()) + " " + duckDbType(table, f))
          .collect(Collectors.joining(", ", "STRUCT(", ")"));
    }
    String type = Projection.duckDbType(column.type());
    if (type == null) {
      throw Errors.unsupportedTable(
          table,
          "nested column "
              + column.name()
              + " is in the schema but in none of the files being"
              + " rewritten; rewriting it is not supported yet");
    }
    return type;
  }

  /**
   * DuckDB's {@code FIELD_IDS} option for the data columns: each column's and struct field's id
   * under its physical name; empty when no column has one.
   */
  static String fieldIds(TableSchema schema) {
    List<Column> columns = dataColumns(schema);
    if (columns.stream().noneMatch(MappedProjection::hasIds)) {
      return "";
    }
    return ", FIELD_IDS " + idMap(columns);
  }

  private static boolean hasIds(Column column) {
    return column.fieldId().isPresent()
        || column.fields().stream().anyMatch(MappedProjection::hasIds);
  }

  private static String idMap(List<Column> columns) {
    List<String> entries = new ArrayList<>();
    for (Column column : columns) {
      if (!hasIds(column)) {
        continue;
      }
      String name = Sql.identifier(column.physicalName());
      if (column.isStruct()) {
        List<String> parts = new ArrayList<>();
        column.fieldId().ifPresent(id -> parts.add("__duckdb_field_id: " + id));
        String inner = idMap(column.fields());
        if (inner.length() > 2) {
          parts.add(inner.substring(1, inner.length() - 1));
        }
        entries.add(name + ": {" + String.join(", ", parts) + "}");
      } else {
        entries.add(name + ": " + column.fieldId().getAsInt());
      }
    }
    return "{" + String.join(", ", entries) + "}";
  }
}
