package company.data.compactor.vacuum;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The effective file retention: the longest of the 168-hour floor, the request and the table's
 * {@code delta.deletedFileRetentionDuration}.
 *
 * @param duration the retention applied
 * @param source where it came from: {@code floor}, {@code request} or {@code table_property}
 */
public record Retention(Duration duration, String source) {

  /** The floor nothing can lower. */
  public static final Duration FLOOR = Duration.ofHours(168);

  private static final Pattern INTERVAL =
      Pattern.compile("(?i)\\s*(?:interval\\s+)?(\\d+)\\s*(second|minute|hour|day|week)s?\\s*");

  /** Chooses the longest of the floor, {@code requestedHours} and the table property. */
  public static Retention effective(int requestedHours, Map<String, String> tableProperties) {
    Retention chosen = new Retention(FLOOR, "floor");
    Duration requested = Duration.ofHours(requestedHours);
    if (requested.compareTo(chosen.duration()) > 0) {
      chosen = new Retention(requested, "request");
    }
    Optional<Duration> table = parse(tableProperties.get("delta.deletedFileRetentionDuration"));
    if (table.isPresent() && table.get().compareTo(chosen.duration()) > 0) {
      chosen = new Retention(table.get(), "table_property");
    }
    return chosen;
  }

  /** Parses Delta's interval strings, e.g. {@code interval 7 days}, {@code 168 hours}. */
  public static Optional<Duration> parse(String interval) {
    if (interval == null) {
      return Optional.empty();
    }
    Matcher m = INTERVAL.matcher(interval);
    if (!m.matches()) {
      return Optional.empty();
    }
    long n = Long.parseLong(m.group(1));
    return Optional.of(switch (m.group(2).toLowerCase(Locale.ROOT)) {
      case "second" -> Duration.ofSeconds(n);
      case "minute" -> Duration.ofMinutes(n);
      case "hour" -> Duration.ofHours(n);
      case "day" -> Duration.ofDays(n);
      default -> Duration.ofDays(7 * n);
    });
  }

  /** Hours, for the report. */
  public long hours() {
    return duration.toHours();
  }
}
