package company.data.compactor.report;

import company.data.compactor.model.DataFile;
import company.data.compactor.model.PartitionValues;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How active file sizes spread per partition, before and (when compaction committed) after the run:
 * counts per size bucket. Bucket {@code i} holds files below {@code bucket_upper_mb[i]} MB and at
 * or above the previous bound; the last bucket (upper bound null) is open.
 *
 * @param bucketUpperMb upper bounds in MB, the last one null
 * @param partitions per partition (sorted by label): counts before, and after (null when nothing
 *     was rewritten)
 */
public record FileSizeHistogram(List<Double> bucketUpperMb, List<PartitionSizes> partitions) {

  /** Bounds in MB: small Parquet files are the point, so the scale is finer at the bottom. */
  static final double[] BOUNDS_MB = {1, 8, 32, 64, 128, 256, 512};

  /**
   * One partition's counts.
   *
   * @param partition its label as in {@code partitions[]}
   * @param before files per bucket before the run
   * @param after files per bucket after the run, null when nothing was rewritten
   */
  public record PartitionSizes(String partition, List<Integer> before, List<Integer> after) {}

  public FileSizeHistogram {
    bucketUpperMb = java.util.Collections.unmodifiableList(new ArrayList<>(bucketUpperMb));
    partitions = List.copyOf(partitions);
  }

  /** The histogram of {@code before} and, when not null, {@code after}. */
  public static FileSizeHistogram of(List<DataFile> before, List<DataFile> after) {
    Map<PartitionValues, int[]> beforeCounts = count(before);
    Map<PartitionValues, int[]> afterCounts = after == null ? Map.of() : count(after);
    java.util.Set<PartitionValues> keys = new java.util.TreeSet<>(PartitionValues.ORDER);
    keys.addAll(beforeCounts.keySet());
    keys.addAll(afterCounts.keySet());
    List<PartitionSizes> partitions = new ArrayList<>();
    for (PartitionValues partition : keys) {
      partitions.add(
          new PartitionSizes(
              partition.label(),
              list(beforeCounts.getOrDefault(partition, new int[BOUNDS_MB.length + 1])),
              after == null
                  ? null
                  : list(afterCounts.getOrDefault(partition, new int[BOUNDS_MB.length + 1]))));
    }
    List<Double> bounds = new ArrayList<>(Arrays.stream(BOUNDS_MB).boxed().toList());
    bounds.add(null);
    return new FileSizeHistogram(bounds, partitions);
  }

  /** Index of the bucket holding a file of {@code bytes}. */
  static int bucket(long bytes) {
    double mb = bytes / (1024.0 * 1024.0);
    for (int i = 0; i < BOUNDS_MB.length; i++) {
      if (mb < BOUNDS_MB[i]) {
        return i;
      }
    }
    return BOUNDS_MB.length;
  }

  private static Map<PartitionValues, int[]> count(List<DataFile> files) {
    // By value: a map sorted by PartitionValues.ORDER would build two labels per comparison, about
    // 20 per file; the few partitions are sorted once, in of().
    Map<PartitionValues, int[]> counts = new HashMap<>();
    for (DataFile f : files) {
      counts
          .computeIfAbsent(f.partition(), k -> new int[BOUNDS_MB.length + 1])[
          bucket(f.sizeBytes())]++;
    }
    return counts;
  }

  private static List<Integer> list(int[] counts) {
    return Arrays.stream(counts).boxed().toList();
  }
}
