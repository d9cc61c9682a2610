package company.data.compactor.vacuum;

import company.data.compactor.error.Errors;
import company.data.compactor.model.SafetyLimits;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;

/**
 * The effective file retention: the longest of the 168-hour floor, the request and the table's
 * {@code delta.deletedFileRetentionDuration}, read with Delta's interval grammar ({@link
 * DeltaInterval}). Fails closed: a property that does not parse refuses vacuum, it never falls back
 * to the floor.
 *
 * @param duration the retention applied, at most {@link #LONGEST}
 * @param source where it came from: {@code floor}, {@code request} or {@code table_property}
 */
public record Retention(Duration duration, String source) {

  /** The floor nothing can lower. */
  public static final Duration FLOOR = Duration.ofHours(SafetyLimits.RETENTION_FLOOR_HOURS);

  /**
   * The longest retention: {@code Long.MAX_VALUE} microseconds (about 292,000 years), the most a
   * Delta interval holds. Longer table values saturate here, meaning "keep everything".
   */
  public static final Duration LONGEST = Duration.of(Long.MAX_VALUE, ChronoUnit.MICROS);

  /** The table property for the file retention. */
  public static final String FILE_RETENTION_PROPERTY = "delta.deletedFileRetentionDuration";

  /** The table property for the log retention (time travel), default 30 days. */
  public static final String LOG_RETENTION_PROPERTY = "delta.logRetentionDuration";

  /**
   * Chooses the longest of the floor, {@code requestedHours} and the table property.
   *
   * @throws company.data.compactor.error.CompactorException REFUSED when the table property is set
   *     but is not a Delta interval
   */
  public static Retention effective(int requestedHours, Map<String, String> tableProperties) {
    Retention chosen = new Retention(FLOOR, "floor");
    Duration requested = Duration.ofHours(requestedHours);
    if (requested.compareTo(chosen.duration()) > 0) {
      chosen = new Retention(requested, "request");
    }
    String value = tableProperties.get(FILE_RETENTION_PROPERTY);
    if (value == null) {
      return chosen;
    }
    Duration table;
    try {
      table = DeltaInterval.parse(value);
    } catch (DeltaInterval.NotAnInterval e) {
      throw Errors.refused(
          "vacuum",
          "the table property "
              + FILE_RETENTION_PROPERTY
              + " = '"
              + value
              + "' is not a Delta interval ("
              + e.getMessage()
              + "). Nothing was deleted. Set it to an interval such as"
              + " 'interval 14 days' (units: week, day, hour, minute, second, millisecond, microsecond), or unset it.");
    }
    return table.compareTo(chosen.duration()) > 0 ? new Retention(table, "table_property") : chosen;
  }

  /**
   * The table's log retention ({@value #LOG_RETENTION_PROPERTY}, Delta's default 30 days when
   * unset), or empty when the value is not a Delta interval; never throws.
   */
  static Optional<Duration> logRetention(Map<String, String> tableProperties) {
    try {
      return Optional.of(
          DeltaInterval.parse(
              tableProperties.getOrDefault(LOG_RETENTION_PROPERTY, "interval 30 days")));
    } catch (DeltaInterval.NotAnInterval e) {
      return Optional.empty();
    }
  }

  /** Hours, for the report. */
  public long hours() {
    return duration.toHours();
  }
}
