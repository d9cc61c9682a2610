package company.data.compactor.compact;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.PartitionValues;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * How well file statistics let a point lookup skip files, before and after Z-ordering. For each
 * Z-order column, point values are sampled evenly from the distinct min/max values the files before
 * and after the rewrite recorded for it (real values of the column; clustered files' bounds spread
 * over the column's range, where fragmented files' bounds crowd its extremes; the same sample
 * before and after); for each sampled value and each rewritten partition, the fraction of the
 * partition's files whose min/max could hold the value (a file without bounds always could) is
 * averaged. Lower is better: 1.0 means every lookup reads every file. Pure.
 *
 * <p>The fraction alone misleads when a rewrite collapses a partition to one file: that file holds
 * every value, so the fraction rises to 1.0 although a lookup now opens one file instead of many.
 * So each measurement also gives what a point lookup reads across the rewritten partitions: files
 * and bytes that could hold the value, averaged over the sampled values.
 */
public final class ZOrderSkipping {

  /** Point values sampled per column. */
  public static final int SAMPLES = 32;

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * The measurement of one column.
   *
   * @param column the Z-order column
   * @param sampledValues point values sampled
   * @param fileFractionBefore average fraction of a partition's files a lookup reads before
   * @param fileFractionAfter the same after
   * @param lookupFilesBefore files a point lookup reads across the rewritten partitions, before,
   *     averaged over the sampled values
   * @param lookupFilesAfter the same after
   * @param lookupBytesBefore bytes of those files, before, averaged over the sampled values
   * @param lookupBytesAfter the same after
   */
  public record ColumnSkipping(
      String column,
      int sampledValues,
      double fileFractionBefore,
      double fileFractionAfter,
      double lookupFilesBefore,
      double lookupFilesAfter,
      double lookupBytesBefore,
      double lookupBytesAfter) {}

  private ZOrderSkipping() {}

  /**
   * Measures every column over the partitions in {@code partitions}.
   *
   * @param before the active files before the rewrite
   * @param after the active files after it
   */
  public static List<ColumnSkipping> measure(
      List<DataFile> before,
      List<DataFile> after,
      List<String> columns,
      Set<PartitionValues> partitions) {
    return measure(before, after, columns, partitions, java.util.function.UnaryOperator.identity());
  }

  /**
   * Measures every column over the partitions in {@code partitions}, reading each column's bounds
   * under the key {@code statsKey} gives it (its physical name under column mapping).
   */
  public static List<ColumnSkipping> measure(
      List<DataFile> before,
      List<DataFile> after,
      List<String> columns,
      Set<PartitionValues> partitions,
      java.util.function.UnaryOperator<String> statsKey) {
    List<ColumnSkipping> result = new ArrayList<>();
    for (String column : columns) {
      String key = statsKey.apply(column);
      Map<PartitionValues, List<Bounds>> beforeBounds = bounds(before, key, partitions);
      Map<PartitionValues, List<Bounds>> afterBounds = bounds(after, key, partitions);
      List<JsonNode> values = sample(beforeBounds, afterBounds);
      if (values.isEmpty()) {
        continue;
      }
      result.add(
          new ColumnSkipping(
              column,
              values.size(),
              fraction(beforeBounds, values),
              fraction(afterBounds, values),
              lookup(beforeBounds, values, false),
              lookup(afterBounds, values, false),
              lookup(beforeBounds, values, true),
              lookup(afterBounds, values, true)));
    }
    return result;
  }

  /** A file's bounds for one column (null: "could hold anything") and its size. */
  record Bounds(JsonNode min, JsonNode max, long sizeBytes) {
    boolean couldHold(JsonNode value) {
      return min == null || max == null || (compare(min, value) <= 0 && compare(value, max) <= 0);
    }
  }

  private static Map<PartitionValues, List<Bounds>> bounds(
      List<DataFile> files, String column, Set<PartitionValues> partitions) {
    Map<PartitionValues, List<Bounds>> out = new TreeMap<>(PartitionValues.ORDER);
    for (DataFile file : files) {
      PartitionValues partition = file.partition();
      if (!partitions.contains(partition)) {
        continue;
      }
      JsonNode min = null;
      JsonNode max = null;
      if (file.statsJson() != null) {
        try {
          JsonNode stats = JSON.readTree(file.statsJson());
          min = scalar(stats.path("minValues").get(column));
          max = scalar(stats.path("maxValues").get(column));
        } catch (IOException e) {
          // unreadable stats: the file could hold any value
        }
      }
      out.computeIfAbsent(partition, k -> new ArrayList<>())
          .add(new Bounds(min, max, file.sizeBytes()));
    }
    return out;
  }

  private static JsonNode scalar(JsonNode node) {
    return node == null || node.isNull() || node.isContainerNode() ? null : node;
  }

  /** Up to {@link #SAMPLES} values evenly spaced over the distinct recorded bounds. */
  @SafeVarargs
  private static List<JsonNode> sample(Map<PartitionValues, List<Bounds>>... sides) {
    List<JsonNode> all = new ArrayList<>();
    for (Map<PartitionValues, List<Bounds>> bounds : sides) {
      for (List<Bounds> files : bounds.values()) {
        for (Bounds b : files) {
          if (b.min() != null) {
            all.add(b.min());
          }
          if (b.max() != null) {
            all.add(b.max());
          }
        }
      }
    }
    all.sort(ZOrderSkipping::compare);
    List<JsonNode> distinct = new ArrayList<>();
    for (JsonNode v : all) {
      if (distinct.isEmpty() || compare(distinct.get(distinct.size() - 1), v) != 0) {
        distinct.add(v);
      }
    }
    if (distinct.size() <= SAMPLES) {
      return distinct;
    }
    List<JsonNode> sampled = new ArrayList<>();
    for (int i = 0; i < SAMPLES; i++) {
      sampled.add(distinct.get((int) ((long) i * (distinct.size() - 1) / (SAMPLES - 1))));
    }
    return sampled;
  }

  private static double fraction(Map<PartitionValues, List<Bounds>> bounds, List<JsonNode> values) {
    double sum = 0;
    int lookups = 0;
    for (List<Bounds> files : bounds.values()) {
      for (JsonNode value : values) {
        sum += (double) files.stream().filter(b -> b.couldHold(value)).count() / files.size();
        lookups++;
      }
    }
    return lookups == 0 ? 1.0 : sum / lookups;
  }

  /**
   * Files (or their bytes) a lookup of each value reads across all partitions, averaged over the
   * values.
   */
  private static double lookup(
      Map<PartitionValues, List<Bounds>> bounds, List<JsonNode> values, boolean bytes) {
    double sum = 0;
    for (JsonNode value : values) {
      for (List<Bounds> files : bounds.values()) {
        for (Bounds b : files) {
          if (b.couldHold(value)) {
            sum += bytes ? b.sizeBytes() : 1;
          }
        }
      }
    }
    return values.isEmpty() ? 0 : sum / values.size();
  }

  /** Numbers by value, everything else (strings, ISO dates and timestamps) as text. */
  static int compare(JsonNode a, JsonNode b) {
    if (a.isNumber() && b.isNumber()) {
      return new BigDecimal(a.asText()).compareTo(new BigDecimal(b.asText()));
    }
    return Comparator.<String>naturalOrder().compare(a.asText(), b.asText());
  }
}
