package company.data.compactor.model;

import java.util.ArrayList;
import java.util.List;

/**
 * How large a {@code partition_filter} may be: at most {@value #MAX_CHARS} characters and
 * parentheses nested at most {@value #MAX_DEPTH} deep. Checked without a schema, so a request can
 * be refused before any table is read (the webhook answers 400), and again by the filter's parser,
 * whose only recursion is a parenthesised group. Real filters are far smaller; the limits exist so
 * hostile text ends as a named validation error, not a stack overflow.
 */
public final class FilterLimits {

  /** The longest filter accepted, in characters. */
  public static final int MAX_CHARS = 10_000;

  /** The deepest nesting of parentheses accepted. */
  public static final int MAX_DEPTH = 32;

  private FilterLimits() {}

  /** Every limit {@code text} exceeds, each a rule phrase naming the limit and what was found. */
  public static List<String> exceeded(String text) {
    List<String> found = new ArrayList<>();
    if (text == null) {
      return found;
    }
    if (text.length() > MAX_CHARS) {
      found.add("must be at most " + MAX_CHARS + " characters long (found " + text.length() + ")");
    }
    int depth = nesting(text);
    if (depth > MAX_DEPTH) {
      found.add("must nest parentheses at most " + MAX_DEPTH + " deep (found " + depth + ")");
    }
    return found;
  }

  /**
   * The deepest nesting of parentheses outside quoted literals ({@code '...'} with {@code ''}) and
   * quoted names ({@code `...`}, {@code "..."}).
   */
  static int nesting(String text) {
    int depth = 0;
    int deepest = 0;
    char quote = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        }
      } else if (c == '\'' || c == '`' || c == '"') {
        quote = c;
      } else if (c == '(') {
        deepest = Math.max(deepest, ++depth);
      } else if (c == ')') {
        depth = Math.max(0, depth - 1);
      }
    }
    return deepest;
  }
}
