package company.data.compactor.model;

import java.util.List;

/**
 * One column of a table schema.
 *
 * @param name column name as the schema spells it
 * @param type Delta type name, e.g. {@code string}, {@code long}, {@code decimal(10,2)}, {@code
 *     struct}, {@code array}, {@code map}
 * @param nullable whether the schema allows nulls
 * @param fields a struct's fields in order; empty for every other type
 */
public record Column(String name, String type, boolean nullable, List<Column> fields) {

  public Column {
    fields = List.copyOf(fields);
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
