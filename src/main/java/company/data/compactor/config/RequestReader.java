package company.data.compactor.config;

import company.data.compactor.error.Errors;
import company.data.compactor.error.Violation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Turns raw inputs (command-line strings, JSON values of a webhook or schedule) into a validated
 * {@link MaintenanceRequest}. Missing or null inputs take their defaults; unknown keys, values of
 * the wrong type and broken rules are all collected and reported together.
 */
public final class RequestReader {

  private RequestReader() {}

  /**
   * Reads and validates {@code inputs}, keyed by snake-case input names ({@link InputKey#key()}).
   * Values may be strings, numbers, booleans or (for {@code z_order_columns}) lists of strings or a
   * comma-separated string.
   *
   * @throws company.data.compactor.error.CompactorException of kind INVALID_REQUEST naming every
   *     violation, when any input is unknown, malformed or breaks a rule
   */
  public static MaintenanceRequest read(Map<String, ?> inputs) {
    List<Violation> found = new ArrayList<>();
    for (String key : new TreeSet<>(inputs.keySet())) {
      if (InputKey.fromKey(key).isEmpty()) {
        found.add(
            new Violation(
                key,
                RequestRules.render(inputs.get(key)),
                "is not a known input (known: "
                    + Arrays.stream(InputKey.values())
                        .map(InputKey::key)
                        .collect(Collectors.joining(", "))
                    + ")"));
      }
    }
    Values values = new Values(inputs, found);
    MaintenanceRequest defaults = MaintenanceRequest.defaults();
    MaintenanceRequest request =
        new MaintenanceRequest(
            values.bool(InputKey.DEMO_MODE, defaults.demoMode()),
            values.string(InputKey.TABLE_URI, defaults.tableUri()),
            values.number(InputKey.SMALL_FILE_THRESHOLD_MB, defaults.smallFileThresholdMb()),
            values.number(
                InputKey.COMPACTION_RATIO_THRESHOLD_PCT, defaults.compactionRatioThresholdPct()),
            values.number(InputKey.TARGET_FILE_SIZE_MB, defaults.targetFileSizeMb()),
            values.list(InputKey.Z_ORDER_COLUMNS, defaults.zOrderColumns()),
            values.integer(InputKey.VACUUM_RETENTION_HOURS, defaults.vacuumRetentionHours()),
            values.bool(InputKey.VACUUM_DRY_RUN, defaults.vacuumDryRun()),
            values.number(InputKey.LATENCY_SLA_MS, defaults.latencySlaMs()),
            values.bool(InputKey.NOTIFY_SLACK, defaults.notifySlack()),
            values.string(InputKey.PARTITION_FILTER, defaults.partitionFilter()),
            values.optionalLong(InputKey.MAX_BYTES_PER_RUN),
            values
                .string(InputKey.VACUUM_MODE, defaults.vacuumMode())
                .strip()
                .toLowerCase(Locale.ROOT),
            values
                .optionalLong(InputKey.MAX_ZORDER_GROUP_BYTES)
                .orElse(defaults.maxZOrderGroupBytes()),
            inputs.get(InputKey.Z_ORDER_COLUMNS.key()) != null
                ? MaintenanceRequest.Source.GIVEN
                : MaintenanceRequest.Source.DEFAULT);
    // Rules are checked only on inputs that parsed, so one bad value is reported once.
    for (Violation v : RequestRules.violations(request)) {
      if (!values.malformed(v.key())) {
        found.add(v);
      }
    }
    if (!found.isEmpty()) {
      throw Errors.invalidRequest(found);
    }
    return request;
  }

  /** Typed access to the raw inputs that records each malformed value once. */
  private static final class Values {
    private final Map<String, ?> inputs;
    private final List<Violation> found;
    private final List<String> malformedKeys = new ArrayList<>();

    Values(Map<String, ?> inputs, List<Violation> found) {
      this.inputs = inputs;
      this.found = found;
    }

    boolean malformed(String key) {
      return malformedKeys.contains(key);
    }

    private Object raw(InputKey key) {
      return inputs.get(key.key());
    }

    private void bad(InputKey key, Object value, String rule) {
      malformedKeys.add(key.key());
      found.add(new Violation(key.key(), RequestRules.render(value), rule));
    }

    boolean bool(InputKey key, boolean fallback) {
      Object value = raw(key);
      if (value == null) {
        return fallback;
      }
      if (value instanceof Boolean b) {
        return b;
      }
      String text = value.toString().strip().toLowerCase(Locale.ROOT);
      if (text.equals("true") || text.equals("false")) {
        return Boolean.parseBoolean(text);
      }
      bad(key, value, "must be true or false");
      return fallback;
    }

    String string(InputKey key, String fallback) {
      Object value = raw(key);
      if (value == null) {
        return fallback;
      }
      if (value instanceof String s) {
        return s;
      }
      bad(key, value, "must be a string");
      return fallback;
    }

    double number(InputKey key, double fallback) {
      Object value = raw(key);
      if (value == null) {
        return fallback;
      }
      if (value instanceof Number n && !(value instanceof Boolean)) {
        return checkFinite(key, value, n.doubleValue(), fallback);
      }
      if (value instanceof String s) {
        try {
          return checkFinite(key, value, Double.parseDouble(s.strip()), fallback);
        } catch (NumberFormatException e) {
          // reported below
        }
      }
      bad(key, value, "must be a number");
      return fallback;
    }

    private double checkFinite(InputKey key, Object value, double parsed, double fallback) {
      if (Double.isNaN(parsed) || Double.isInfinite(parsed)) {
        bad(key, value, "must be a finite number");
        return fallback;
      }
      return parsed;
    }

    int integer(InputKey key, int fallback) {
      Object value = raw(key);
      if (value == null) {
        return fallback;
      }
      double parsed;
      if (value instanceof Number n) {
        parsed = n.doubleValue();
      } else if (value instanceof String s) {
        try {
          parsed = Double.parseDouble(s.strip());
        } catch (NumberFormatException e) {
          bad(key, value, "must be a whole number");
          return fallback;
        }
      } else {
        bad(key, value, "must be a whole number");
        return fallback;
      }
      if (parsed != Math.rint(parsed) || Math.abs(parsed) > Integer.MAX_VALUE) {
        bad(key, value, "must be a whole number");
        return fallback;
      }
      return (int) parsed;
    }

    java.util.OptionalLong optionalLong(InputKey key) {
      Object value = raw(key);
      if (value == null || (value instanceof String s && s.isBlank())) {
        return java.util.OptionalLong.empty();
      }
      try {
        java.math.BigDecimal parsed = new java.math.BigDecimal(value.toString().strip());
        return java.util.OptionalLong.of(parsed.longValueExact());
      } catch (NumberFormatException | ArithmeticException e) {
        bad(key, value, "must be a whole number of bytes");
        return java.util.OptionalLong.empty();
      }
    }

    List<String> list(InputKey key, List<String> fallback) {
      Object value = raw(key);
      if (value == null) {
        return fallback;
      }
      if (value instanceof String s) {
        if (s.isBlank()) {
          return List.of();
        }
        return Arrays.stream(s.split(",", -1)).map(String::strip).toList();
      }
      if (value instanceof List<?> list && list.stream().allMatch(e -> e instanceof String)) {
        return list.stream().map(e -> ((String) e).strip()).toList();
      }
      bad(key, value, "must be a list of column names (or a comma-separated string)");
      return fallback;
    }
  }
}
