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

  /** Whether {@code name} is a partition column. */
  public boolean isPartitionColumn(String name) {
    return partitionColumns.contains(name);
  }
}
