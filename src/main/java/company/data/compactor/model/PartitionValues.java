package company.data.compactor.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The partition a data file belongs to: partition column name to raw value, in the table's
 * partition column order. A value may be {@code null} (the SQL NULL partition).
 *
 * @param values column to value, ordered as the table's partition columns; never null itself
 */
public record PartitionValues(Map<String, String> values) {

  /** Label of files in a table without partition columns. */
  public static final String UNPARTITIONED_LABEL = "unpartitioned";

  /** How a NULL value is written in {@link #label()}, the convention Hive and Spark use. */
  public static final String NULL_LABEL = "__HIVE_DEFAULT_PARTITION__";

  private static final PartitionValues NONE = new PartitionValues(Map.of());

  public PartitionValues {
    values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
  }

  /** The partition of an unpartitioned table. */
  public static PartitionValues none() {
    return NONE;
  }

  /**
   * Orders {@code raw} as {@code partitionColumns}; columns missing from {@code raw} are NULL, as
   * the Delta protocol reads them.
   */
  public static PartitionValues of(List<String> partitionColumns, Map<String, String> raw) {
    Map<String, String> ordered = new LinkedHashMap<>();
    for (String column : partitionColumns) {
      ordered.put(column, raw.get(column));
    }
    return new PartitionValues(ordered);
  }

  /**
   * Human label {@code col=value[/col=value]}, values shown as they are (no path escaping), or
   * {@value #UNPARTITIONED_LABEL}.
   */
  public String label() {
    if (values.isEmpty()) {
      return UNPARTITIONED_LABEL;
    }
    StringJoiner joiner = new StringJoiner("/");
    values.forEach((k, v) -> joiner.add(k + "=" + (v == null ? NULL_LABEL : v)));
    return joiner.toString();
  }
}
