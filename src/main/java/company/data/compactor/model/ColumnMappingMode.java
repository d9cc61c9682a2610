package company.data.compactor.model;

import java.util.Locale;
import java.util.Map;

/**
 * How a table's data files name its columns ({@code delta.columnMapping.mode}): by the schema's
 * names ({@link #NONE}), by each column's physical name ({@link #NAME}) or by Parquet field id
 * ({@link #ID}).
 */
public enum ColumnMappingMode {
  NONE,
  NAME,
  ID;

  /** The table property that selects the mode. */
  public static final String PROPERTY = "delta.columnMapping.mode";

  /**
   * The mode {@code properties} select; {@link #NONE} when unset.
   *
   * @throws IllegalArgumentException for a value Delta does not define
   */
  public static ColumnMappingMode of(Map<String, String> properties) {
    String value = properties.get(PROPERTY);
    if (value == null) {
      return NONE;
    }
    return switch (value.strip().toLowerCase(Locale.ROOT)) {
      case "none" -> NONE;
      case "name" -> NAME;
      case "id" -> ID;
      default ->
          throw new IllegalArgumentException(
              PROPERTY + " is " + value + ", which Delta does not define (none, name, id)");
    };
  }

  /** Whether files name columns by something other than the schema's names. */
  public boolean isMapped() {
    return this != NONE;
  }
}
