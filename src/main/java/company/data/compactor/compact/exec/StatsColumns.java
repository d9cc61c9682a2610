package company.data.compactor.compact.exec;

import company.data.compactor.model.Column;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which columns get min/max/null-count stats, as Delta decides: {@code
 * delta.dataSkippingStatsColumns} when set, else the first {@code
 * delta.dataSkippingNumIndexedCols} (default 32, -1 for all) data columns.
 */
final class StatsColumns {

  static final int DEFAULT_NUM_INDEXED_COLS = 32;

  private StatsColumns() {}

  static List<Column> of(List<Column> dataColumns, Map<String, String> properties) {
    String explicit = properties.get("delta.dataSkippingStatsColumns");
    if (explicit != null && !explicit.isBlank()) {
      Set<String> names =
          Arrays.stream(explicit.split(",")).map(String::strip).map(n -> n.replace("`", "")).collect(Collectors.toSet());
      return dataColumns.stream().filter(c -> names.contains(c.name())).toList();
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
    if (limit < 0 || limit >= dataColumns.size()) {
      return dataColumns;
    }
    return new ArrayList<>(dataColumns.subList(0, limit));
  }
}
