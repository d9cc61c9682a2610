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
   * @param path field names from the top-level column down to the leaf
   * @param column the leaf's column (its type decides which statistics it gets)
   */
  record Leaf(List<String> path, Column column) {
    Leaf {
      path = List.copyOf(path);
    }

    String dotted() {
      return String.join(".", path);
    }
  }

  private StatsColumns() {}

  static List<Leaf> of(List<Column> dataColumns, Map<String, String> properties) {
    List<Leaf> leaves = new ArrayList<>();
    for (Column column : dataColumns) {
      addLeaves(List.of(), column, leaves);
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

  private static void addLeaves(List<String> parent, Column column, List<Leaf> leaves) {
    List<String> path = new ArrayList<>(parent);
    path.add(column.name());
    if (column.isStruct()) {
      column.fields().forEach(f -> addLeaves(path, f, leaves));
    } else {
      leaves.add(new Leaf(path, column));
    }
  }

  /** Whether the leaf or one of the structs above it is named. */
  private static boolean selected(Leaf leaf, Set<String> names) {
    for (int i = 1; i <= leaf.path().size(); i++) {
      if (names.contains(String.join(".", leaf.path().subList(0, i)))) {
        return true;
      }
    }
    return false;
  }
}
