package company.data.compactor.config;

import company.data.compactor.error.Violation;
import company.data.compactor.model.Column;
import company.data.compactor.model.FilterLimits;
import company.data.compactor.model.SafetyLimits;
import company.data.compactor.model.TableSchema;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The rules a request must satisfy. Each method returns every violation it finds (empty when the
 * request is fine); callers refuse the run before touching anything when any is returned.
 */
public final class RequestRules {

  private RequestRules() {}

  /** Rules that need no table: ranges and shapes of the values. */
  public static List<Violation> violations(MaintenanceRequest request) {
    List<Violation> found = new ArrayList<>();
    found.addAll(TableUris.violations(InputKey.TABLE_URI.key(), request.tableUri()));
    for (String rule : FilterLimits.exceeded(request.partitionFilter())) {
      found.add(
          violation(InputKey.PARTITION_FILTER, Violation.excerpt(request.partitionFilter()), rule));
    }
    if (!(request.smallFileThresholdMb() > 0)) {
      found.add(
          violation(
              InputKey.SMALL_FILE_THRESHOLD_MB, request.smallFileThresholdMb(), "must be > 0"));
    }
    double ratio = request.compactionRatioThresholdPct();
    if (!(ratio > 0 && ratio <= 100)) {
      found.add(
          violation(InputKey.COMPACTION_RATIO_THRESHOLD_PCT, ratio, "must be > 0 and <= 100"));
    }
    if (!(request.targetFileSizeMb() > 0)) {
      found.add(violation(InputKey.TARGET_FILE_SIZE_MB, request.targetFileSizeMb(), "must be > 0"));
    }
    if (request.vacuumRetentionHours() < SafetyLimits.RETENTION_FLOOR_HOURS) {
      found.add(
          violation(
              InputKey.VACUUM_RETENTION_HOURS,
              request.vacuumRetentionHours(),
              "must be >= "
                  + SafetyLimits.RETENTION_FLOOR_HOURS
                  + " (7 days); shorter retention can delete files that readers and time travel"
                  + " still need, and there is no override"));
    }
    if (!(request.latencySlaMs() > 0) || Double.isInfinite(request.latencySlaMs())) {
      found.add(violation(InputKey.LATENCY_SLA_MS, request.latencySlaMs(), "must be > 0"));
    }
    if (request.maxZOrderGroupBytes() <= 0) {
      found.add(
          violation(InputKey.MAX_ZORDER_GROUP_BYTES, request.maxZOrderGroupBytes(), "must be > 0"));
    }
    if (request.zOrderColumns().size() > SafetyLimits.MAX_Z_ORDER_COLUMNS) {
      found.add(
          violation(
              InputKey.Z_ORDER_COLUMNS,
              request.zOrderColumns(),
              "at most "
                  + SafetyLimits.MAX_Z_ORDER_COLUMNS
                  + " columns: each more column halves how well the others cluster"));
    }
    if (request.maxBytesPerRun().isPresent() && request.maxBytesPerRun().getAsLong() <= 0) {
      found.add(
          violation(
              InputKey.MAX_BYTES_PER_RUN, request.maxBytesPerRun().getAsLong(), "must be > 0"));
    }
    if (!request.vacuumMode().equals("lite") && !request.vacuumMode().equals("full")) {
      found.add(violation(InputKey.VACUUM_MODE, request.vacuumMode(), "must be lite or full"));
    }
    Set<String> seen = new HashSet<>();
    for (String column : request.zOrderColumns()) {
      if (column.isBlank()) {
        found.add(
            violation(
                InputKey.Z_ORDER_COLUMNS, request.zOrderColumns(), "must not contain blank names"));
      } else if (!seen.add(column)) {
        found.add(
            violation(
                InputKey.Z_ORDER_COLUMNS,
                request.zOrderColumns(),
                "must not name " + column + " twice"));
      }
    }
    return found;
  }

  /**
   * Rules that need the loaded table: each {@code z_order_columns} entry exists and is not a
   * partition column.
   */
  public static List<Violation> violationsAgainst(MaintenanceRequest request, TableSchema schema) {
    List<Violation> found = new ArrayList<>();
    String known = schema.columns().stream().map(Column::name).collect(Collectors.joining(", "));
    for (String column : request.zOrderColumns()) {
      if (schema.column(column).isEmpty()) {
        found.add(
            violation(
                InputKey.Z_ORDER_COLUMNS,
                request.zOrderColumns(),
                column
                    + " is not a column of the table (columns: "
                    + known
                    + "); name existing columns, or pass an empty list for bin-packing only"
                    + " (--z-order-columns '' on the command line)"));
      } else if (!isOrderable(schema.column(column).get().type())) {
        found.add(
            violation(
                InputKey.Z_ORDER_COLUMNS,
                request.zOrderColumns(),
                column
                    + " has type "
                    + schema.column(column).get().type()
                    + ", which has no order Delta keeps min/max statistics for, so clustering on it"
                    + " cannot skip files; use a number, decimal, string, date, timestamp or boolean column"));
      } else if (schema.isPartitionColumn(column)) {
        found.add(
            violation(
                InputKey.Z_ORDER_COLUMNS,
                request.zOrderColumns(),
                column
                    + " is a partition column; every file holds one value of it, so it cannot be"
                    + " clustered"));
      }
    }
    return found;
  }

  /** Delta types with an order and min/max statistics: what a Z-order key can be built from. */
  static boolean isOrderable(String deltaType) {
    return switch (deltaType) {
      case "byte",
          "short",
          "integer",
          "long",
          "float",
          "double",
          "string",
          "date",
          "timestamp",
          "timestamp_ntz",
          "boolean" ->
          true;
      default -> deltaType.startsWith("decimal(");
    };
  }

  static Violation violation(InputKey key, Object value, String rule) {
    return new Violation(key.key(), render(value), rule);
  }

  static String render(Object value) {
    if (value instanceof Double d && d == Math.rint(d) && !Double.isInfinite(d)) {
      return String.valueOf(d.longValue());
    }
    if (value instanceof List<?> list) {
      return list.stream().map(String::valueOf).collect(Collectors.joining(",", "[", "]"));
    }
    return String.valueOf(value);
  }
}
