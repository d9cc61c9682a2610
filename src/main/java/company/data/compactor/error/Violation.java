package company.data.compactor.error;

/**
 * One broken input rule.
 *
 * @param key the input's name as the user spells it, e.g. {@code vacuum_retention_hours}
 * @param value the value given, rendered as text ({@code null} when absent)
 * @param rule what the value must satisfy, e.g. {@code must be >= 168}
 */
public record Violation(String key, String value, String rule) {

  /** {@code key=value: rule}. */
  public String describe() {
    return key + "=" + value + ": " + rule;
  }
}
