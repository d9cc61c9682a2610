package company.data.compactor.model;

import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * One column of a table schema.
 *
 * @param name column name as the schema spells it (the logical name readers and users see)
 * @param type Delta type name, e.g. {@code string}, {@code long}, {@code decimal(10,2)}, {@code
 *     struct}, {@code array}, {@code map}
 * @param nullable whether the schema allows nulls
 * @param fields a struct's fields in order; empty for every other type
 * @param physicalName the name data files and statistics use: {@code
 *     delta.columnMapping.physicalName} under column mapping, else {@link #name}
 * @param fieldId the Parquet field id ({@code delta.columnMapping.id}) under column mapping; empty
 *     otherwise
 */
public record Column(
    String name,
    String type,
    boolean nullable,
    List<Column> fields,
    String physicalName,
    OptionalInt fieldId) {

  public Column {
    Objects.requireNonNull(name, "name");
    fields = List.copyOf(fields);
    physicalName = physicalName == null ? name : physicalName;
    Objects.requireNonNull(fieldId, "fieldId");
  }

  /** A column without column mapping: its physical name is its name. */
  public Column(String name, String type, boolean nullable, List<Column> fields) {
    this(name, type, nullable, fields, name, OptionalInt.empty());
  }

  /** A column without nested fields. */
  public Column(String name, String type, boolean nullable) {
    this(name, type, nullable, List.of());
  }

  /** Whether this is a struct whose fields are columns of their own for statistics. */
  public boolean isStruct() {
    return type.equals("struct");
  }
}
