package company.data.compactor.model;

import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The partition a data file belongs to: partition column name to raw value, in the table's
 * partition column order. A value may be {@code null} (the SQL NULL partition).
 *
 * @param values column to value, ordered as the table's partition columns; never null itself
 */
public record PartitionValues(Map<String, String> values) {

  /** Label of files in a table without partition columns. */
  public static final String UNPARTITIONED_LABEL = "unpartitioned";

  /** How a NULL value is written in {@link #label()}, the convention Hive and Spark use. */
  public static final String NULL_LABEL = "__HIVE_DEFAULT_PARTITION__";

  private static final PartitionValues NONE = new PartitionValues(Map.of());

  public PartitionValues {
    values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
  }

  /** The partition of an unpartitioned table. */
  public static PartitionValues none() {
    return NONE;
  }

  /**
   * Orders {@code raw} as {@code partitionColumns}; columns missing from {@code raw} are NULL, as
   * the Delta protocol reads them.
   */
  public static PartitionValues of(List<String> partitionColumns, Map<String, String> raw) {
    Map<String, String> ordered = new LinkedHashMap<>();
    for (String column : partitionColumns) {
      ordered.put(column, raw.get(column));
    }
    return new PartitionValues(ordered);
  }

  /**
   * Deterministic order for reports: by label, then (for the one label two partitions can share,
   * NULL and the literal string {@value #NULL_LABEL}) NULL first.
   */
  public static final Comparator<PartitionValues> ORDER =
      Comparator.comparing(PartitionValues::label).thenComparing(PartitionValues::nullsFirst);

  /**
   * Human label {@code col=value[/col=value]} with names and values escaped as Hive and Spark
   * escape partition directories ({@code /}, {@code =}, {@code %} and other special characters as
   * {@code %XX}), so two partitions never read alike; a NULL is {@value #NULL_LABEL}; {@value
   * #UNPARTITIONED_LABEL} for a table without partition columns. For people and logs only:
   * partitions are identified by their values.
   */
  public String label() {
    if (values.isEmpty()) {
      return UNPARTITIONED_LABEL;
    }
    StringJoiner joiner = new StringJoiner("/");
    values.forEach(
        (k, v) ->
            joiner.add(escapePathName(k) + "=" + (v == null ? NULL_LABEL : escapePathName(v))));
    return joiner.toString();
  }

  /**
   * The directory below the table root that Delta writers put this partition's files in, as Spark
   * and delta-rs name it: {@code col=value} segments escaped like {@link #label()}, NULL and the
   * empty string as {@value #NULL_LABEL}; empty for an unpartitioned table. Unescaped for the URI
   * form of a log path: the {@code %} of the escapes is itself a character of the directory name.
   */
  public String directory() {
    StringJoiner joiner = new StringJoiner("/");
    values.forEach(
        (k, v) ->
            joiner.add(
                escapePathName(k)
                    + "="
                    + (v == null || v.isEmpty() ? NULL_LABEL : escapePathName(v))));
    return joiner.toString();
  }

  /**
   * Hive's partition path escaping (as Spark's {@code ExternalCatalogUtils.escapePathName}):
   * control characters and {@code " # % ' * / : = ? \ { [ ] ^} and DEL become {@code %XX}.
   */
  static String escapePathName(String raw) {
    if (!needsEscape(raw)) {
      return raw;
    }
    StringBuilder out = new StringBuilder(raw.length());
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c < 0x20 || c == 0x7F || "\"#%'*/:=?\\{[]^".indexOf(c) >= 0) {
        out.append('%').append(String.format("%02X", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  private static boolean needsEscape(String raw) {
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c < 0x20 || c == 0x7F || "\"#%'*/:=?\\{[]^".indexOf(c) >= 0) {
        return true;
      }
    }
    return false;
  }

  /** Column by column, NULL before any string, then by column names: total with the label. */
  private static int nullsFirst(PartitionValues a, PartitionValues b) {
    var left = a.values.entrySet().iterator();
    var right = b.values.entrySet().iterator();
    while (left.hasNext() && right.hasNext()) {
      Map.Entry<String, String> l = left.next();
      Map.Entry<String, String> r = right.next();
      int byName = l.getKey().compareTo(r.getKey());
      if (byName != 0) {
        return byName;
      }
      int byValue =
          Comparator.nullsFirst(Comparator.<String>naturalOrder())
              .compare(l.getValue(), r.getValue());
      if (byValue != 0) {
        return byValue;
      }
    }
    return Boolean.compare(left.hasNext(), right.hasNext());
  }
}
