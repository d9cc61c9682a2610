package company.data.compactor.loghygiene;

import company.data.compactor.vacuum.DeltaInterval;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The table properties log hygiene follows, with Delta's defaults. Pure. A value that does not
 * parse never falls back to a default that would delete: an unreadable {@value #ENABLED} or {@value
 * #RETENTION} stops cleanup (named in {@link #problems}), an unreadable {@value #INTERVAL} only
 * stops the checkpoint.
 *
 * @param cleanupEnabled {@value #ENABLED}, default true; false also when the value is unreadable
 * @param retention {@value #RETENTION} (Delta's interval grammar, default {@value
 *     #DEFAULT_RETENTION}); empty when it does not parse
 * @param retentionSource {@code default} or {@code table_property}
 * @param checkpointInterval {@value #INTERVAL}, default {@value #DEFAULT_INTERVAL}; empty when it
 *     is not a whole number above 0
 * @param problems each unreadable property, by name, value and rule
 */
public record LogSettings(
    boolean cleanupEnabled,
    Optional<Duration> retention,
    String retentionSource,
    OptionalInt checkpointInterval,
    List<String> problems) {

  /** Whether expired log files are deleted at all. */
  public static final String ENABLED = "delta.enableExpiredLogCleanup";

  /** How long log files are kept (time travel), Delta's default 30 days. */
  public static final String RETENTION = "delta.logRetentionDuration";

  /** Commits between checkpoints. */
  public static final String INTERVAL = "delta.checkpointInterval";

  /** Delta's default for {@value #RETENTION}. */
  public static final String DEFAULT_RETENTION = "interval 30 days";

  /** Delta's default for {@value #INTERVAL}. */
  public static final int DEFAULT_INTERVAL = 10;

  public LogSettings {
    problems = List.copyOf(problems);
  }

  /** The settings of a table with these properties. */
  public static LogSettings of(Map<String, String> properties) {
    List<String> problems = new ArrayList<>();
    boolean enabled = true;
    String enabledValue = properties.get(ENABLED);
    if (enabledValue != null) {
      String flag = enabledValue.strip().toLowerCase(Locale.ROOT);
      if (flag.equals("false")) {
        enabled = false;
      } else if (!flag.equals("true")) {
        enabled = false;
        problems.add(ENABLED + " = '" + enabledValue + "' is neither true nor false");
      }
    }
    String retentionValue = properties.get(RETENTION);
    Optional<Duration> retention;
    try {
      retention =
          Optional.of(
              DeltaInterval.parse(retentionValue == null ? DEFAULT_RETENTION : retentionValue));
    } catch (DeltaInterval.NotAnInterval e) {
      retention = Optional.empty();
      problems.add(
          RETENTION
              + " = '"
              + retentionValue
              + "' is not a Delta interval ("
              + e.getMessage()
              + ")");
    }
    OptionalInt interval = OptionalInt.of(DEFAULT_INTERVAL);
    String intervalValue = properties.get(INTERVAL);
    if (intervalValue != null) {
      try {
        int parsed = Integer.parseInt(intervalValue.strip());
        interval = parsed > 0 ? OptionalInt.of(parsed) : OptionalInt.empty();
      } catch (NumberFormatException e) {
        interval = OptionalInt.empty();
      }
      if (interval.isEmpty()) {
        problems.add(INTERVAL + " = '" + intervalValue + "' is not a whole number above 0");
      }
    }
    return new LogSettings(
        enabled,
        retention,
        retentionValue == null ? "default" : "table_property",
        interval,
        problems);
  }
}
