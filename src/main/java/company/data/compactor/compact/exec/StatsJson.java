package company.data.compactor.compact.exec;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * Delta's per-file statistics JSON ({@code numRecords}, {@code minValues}, {@code maxValues},
 * {@code nullCount}), written so that every bound is safe for data skipping:
 *
 * <ul>
 *   <li>strings are cut to {@value #STRING_PREFIX_LENGTH} code points, as Delta Lake does; a cut
 *       maximum gets U+10FFFF appended so it stays above every value with that prefix (a run of
 *       U+10FFFF right after the cut is kept before it);
 *   <li>a zero minimum of a float column is the negative number closest to zero, a zero maximum
 *       0.0, so neither -0.0 nor 0.0 is skipped;
 *   <li>timestamps have millisecond precision: minima are floored, maxima ceiled;
 *   <li>a column holding NaN or infinities gets no bounds (JSON cannot say them, and NaN has no
 *       order);
 *   <li>a date or timestamp column with a value outside the years 1 to 9999 gets no bounds: the
 *       {@code yyyy-MM-dd} form cannot say it, and a wrong bound would make readers skip rows.
 * </ul>
 */
final class StatsJson {

  static final int STRING_PREFIX_LENGTH = 32;
  private static final String MAX_CODE_POINT = new String(Character.toChars(0x10FFFF));
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final DateTimeFormatter UTC_MILLIS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter LOCAL_MILLIS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

  private StatsJson() {}

  /**
   * The stats document: values of nested fields sit in nested objects under their struct, as the
   * protocol lays them out ({@code "nullCount": {"info": {"x": 3}}}); arrays and maps get a null
   * count only.
   */
  static String format(long numRecords, List<ColumnStats> columns) {
    ObjectNode root = JSON.createObjectNode();
    root.put("numRecords", numRecords);
    ObjectNode min = root.putObject("minValues");
    ObjectNode max = root.putObject("maxValues");
    ObjectNode nulls = root.putObject("nullCount");
    for (ColumnStats stats : columns) {
      List<String> path = stats.leaf().path();
      String name = path.get(path.size() - 1);
      String type = stats.leaf().column().type();
      if (stats.min() != null
          && stats.max() != null
          && sayable(type, stats.min())
          && sayable(type, stats.max())) {
        put(parent(min, path), name, type, stats.min(), false);
        put(parent(max, path), name, type, stats.max(), true);
      }
      parent(nulls, path).put(name, stats.nullCount());
    }
    removeEmpty(min);
    removeEmpty(max);
    try {
      return JSON.writeValueAsString(root);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("stats could not be serialised", e);
    }
  }

  /**
   * Whether a bound can be written exactly: dates and timestamps only within the years 1 to 9999.
   */
  static boolean sayable(String type, Object value) {
    return switch (type) {
      case "date" ->
          ((String) value).matches("\\d{4}-\\d{2}-\\d{2}") && !((String) value).startsWith("0000");
      case "timestamp", "timestamp_ntz" -> {
        long micros = (Long) value;
        yield micros >= FIRST_YEAR_MICROS && micros <= LAST_YEAR_MICROS;
      }
      default -> true;
    };
  }

  private static final long FIRST_YEAR_MICROS =
      Instant.parse("0001-01-01T00:00:00Z").getEpochSecond() * 1_000_000L;
  private static final long LAST_YEAR_MICROS =
      Instant.parse("9999-12-31T23:59:59Z").getEpochSecond() * 1_000_000L;

  /**
   * The object the leaf's value goes in: {@code root} for a top-level column, else its struct's.
   */
  private static ObjectNode parent(ObjectNode root, List<String> path) {
    ObjectNode node = root;
    for (String field : path.subList(0, path.size() - 1)) {
      node = node.has(field) ? (ObjectNode) node.get(field) : node.putObject(field);
    }
    return node;
  }

  /** Drops struct objects left empty (no field had bounds). */
  private static void removeEmpty(ObjectNode node) {
    List<String> empty = new java.util.ArrayList<>();
    node.fields()
        .forEachRemaining(
            e -> {
              if (e.getValue() instanceof ObjectNode child) {
                removeEmpty(child);
                if (child.isEmpty()) {
                  empty.add(e.getKey());
                }
              }
            });
    empty.forEach(node::remove);
  }

  private static void put(ObjectNode node, String name, String type, Object value, boolean upper) {
    switch (type) {
      case "byte", "short", "integer", "long" -> node.put(name, ((Number) value).longValue());
      case "float", "double" ->
          node.put(name, zeroWidened(((Number) value).doubleValue(), type, upper));
      case "string" ->
          node.put(name, upper ? upperBound((String) value) : lowerBound((String) value));
      case "date" -> node.put(name, (String) value);
      case "timestamp" -> node.put(name, UTC_MILLIS.format(millis((Long) value, upper)));
      case "timestamp_ntz" -> node.put(name, LOCAL_MILLIS.format(millis((Long) value, upper)));
      default -> {
        if (type.startsWith("decimal(")) {
          node.put(name, (BigDecimal) value);
        }
      }
    }
  }

  static String lowerBound(String value) {
    return prefix(value);
  }

  /**
   * A zero bound widened so no reader skips a file holding either zero: a zero minimum is written
   * as the negative number closest to zero of the column's type, a zero maximum as 0.0. DuckDB
   * takes -0.0 and 0.0 as equal and answers whichever it met first, while Delta kernel orders -0.0
   * below 0.0 and reads a {@code -0.0} in the stats as 0.0: a minimum of 0.0 (or even -0.0) over a
   * file holding -0.0 made a scan for {@code d <= -0.0} skip it.
   */
  static double zeroWidened(double bound, String type, boolean upper) {
    if (bound != 0.0) {
      return bound;
    }
    if (upper) {
      return 0.0;
    }
    return type.equals("float") ? -(double) Float.MIN_VALUE : -Double.MIN_VALUE;
  }

  /**
   * The value, or its first {@value #STRING_PREFIX_LENGTH} code points followed by U+10FFFF, which
   * is above every value continuing that prefix with a smaller code point. A value continuing it
   * with U+10FFFF itself keeps that run in its bound, else the bound would end inside the value and
   * sort below it.
   */
  static String upperBound(String value) {
    int cut = prefix(value).length();
    while (cut < value.length() && value.codePointAt(cut) == MAX_CODE_POINT.codePointAt(0)) {
      cut += MAX_CODE_POINT.length();
    }
    return cut == value.length() ? value : value.substring(0, cut) + MAX_CODE_POINT;
  }

  private static String prefix(String value) {
    if (value.codePointCount(0, value.length()) <= STRING_PREFIX_LENGTH) {
      return value;
    }
    return value.substring(0, value.offsetByCodePoints(0, STRING_PREFIX_LENGTH));
  }

  private static Instant millis(long micros, boolean up) {
    long ms = up ? Math.floorDiv(micros + 999, 1000) : Math.floorDiv(micros, 1000);
    return Instant.ofEpochMilli(ms);
  }
}
