package company.data.compactor.error;

/**
 * One broken input rule.
 *
 * @param key the input's name as the user spells it, e.g. {@code vacuum_retention_hours}
 * @param value the value given, rendered as text ({@code null} when absent)
 * @param rule what the value must satisfy, e.g. {@code must be >= 168}
 */
public record Violation(String key, String value, String rule) {

  /** Values longer than this are shown as an excerpt in messages. */
  public static final int MAX_SHOWN_CHARS = 200;

  /**
   * {@code value} as a message shows it: whole when at most {@value #MAX_SHOWN_CHARS} characters,
   * else its first 60 characters, {@code ...} and its length, so a hostile value cannot flood a
   * message or a log line.
   */
  public static String excerpt(String value) {
    if (value == null || value.length() <= MAX_SHOWN_CHARS) {
      return value;
    }
    return value.substring(0, 60) + "... (" + value.length() + " characters)";
  }

  /** {@code key=value: rule}. */
  public String describe() {
    return key + "=" + value + ": " + rule;
  }
}
