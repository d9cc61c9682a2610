package company.data.compactor.compact.exec;

import company.data.compactor.model.Column;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which leaf columns get statistics, as Delta decides: {@code delta.dataSkippingStatsColumns} when
 * set (names, dotted for nested fields; a struct named means all its fields), else the first {@code
 * delta.dataSkippingNumIndexedCols} (default 32, -1 for all) leaves of the data columns in schema
 * order. A struct is not a leaf, its fields are; arrays and maps are leaves.
 */
final class StatsColumns {

  static final int DEFAULT_NUM_INDEXED_COLS = 32;

  /**
   * One leaf column with its path from the top-level column.
   *
   * @param path physical field names from the top-level column down to the leaf: how the written
   *     file and the statistics name it (the schema's names without column mapping)
   * @param column the leaf's column (its type decides which statistics it gets)
   * @param logicalPath the schema's names for the same path, as {@code
   *     delta.dataSkippingStatsColumns} names columns
   */
  record Leaf(List<String> path, Column column, List<String> logicalPath) {
    Leaf {
      path = List.copyOf(path);
      logicalPath = List.copyOf(logicalPath);
    }

    /** A leaf of a table without column mapping. */
    Leaf(List<String> path, Column column) {
      this(path, column, path);
    }

    String dotted() {
      return String.join(".", path);
    }
  }

  private StatsColumns() {}

  static List<Leaf> of(List<Column> dataColumns, Map<String, String> properties) {
    List<Leaf> leaves = new ArrayList<>();
    for (Column column : dataColumns) {
      addLeaves(List.of(), List.of(), column, leaves);
    }
    String explicit = properties.get("delta.dataSkippingStatsColumns");
    if (explicit != null && !explicit.isBlank()) {
      Set<String> names =
          Arrays.stream(explicit.split(","))
              .map(String::strip)
              .map(n -> n.replace("`", ""))
              .collect(Collectors.toSet());
      return leaves.stream().filter(l -> selected(l, names)).toList();
    }
    int limit = DEFAULT_NUM_INDEXED_COLS;
    String configured = properties.get("delta.dataSkippingNumIndexedCols");
    if (configured != null) {
      try {
        limit = Integer.parseInt(configured.strip());
      } catch (NumberFormatException e) {
        limit = DEFAULT_NUM_INDEXED_COLS;
      }
    }
    if (limit < 0 || limit >= leaves.size()) {
      return leaves;
    }
    return new ArrayList<>(leaves.subList(0, limit));
  }

  private static void addLeaves(
      List<String> parent, List<String> logicalParent, Column column, List<Leaf> leaves) {
    List<String> path = new ArrayList<>(parent);
    path.add(column.physicalName());
    List<String> logical = new ArrayList<>(logicalParent);
    logical.add(column.name());
    if (column.isStruct()) {
      column.fields().forEach(f -> addLeaves(path, logical, f, leaves));
    } else {
      leaves.add(new Leaf(path, column, logical));
    }
  }

  /** Whether the leaf or one of the structs above it is named. */
  private static boolean selected(Leaf leaf, Set<String> names) {
    for (int i = 1; i <= leaf.logicalPath().size(); i++) {
      if (names.contains(String.join(".", leaf.logicalPath().subList(0, i)))) {
        return true;
      }
    }
    return false;
  }
}
