package company.data.compactor.model;

import java.util.List;
import java.util.Optional;

/**
 * Top-level columns of a table and which of them partition it.
 *
 * @param columns all top-level columns, in schema order
 * @param partitionColumns names of the partition columns, in partition order
 */
public record TableSchema(List<Column> columns, List<String> partitionColumns) {

  public TableSchema {
    columns = List.copyOf(columns);
    partitionColumns = List.copyOf(partitionColumns);
  }

  /** The column of that exact name, if any. */
  public Optional<Column> column(String name) {
    return columns.stream().filter(c -> c.name().equals(name)).findFirst();
  }

  /**
   * The name data files, statistics and partition values use for top-level column {@code name}: its
   * physical name under column mapping, else the name itself (also for a name the schema does not
   * have). Matched exactly, else case-insensitively, as Delta resolves names.
   */
  public String physicalName(String name) {
    return column(name)
        .or(() -> columns.stream().filter(c -> c.name().equalsIgnoreCase(name)).findFirst())
        .map(Column::physicalName)
        .orElse(name);
  }

  /** Whether {@code name} is a partition column. */
  public boolean isPartitionColumn(String name) {
    return partitionColumns.contains(name);
  }
}
