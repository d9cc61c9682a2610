package company.data.compactor.compact;

import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * What the planner needs to decide, derived from the request by the pipeline.
 *
 * @param smallFileThresholdBytes files strictly below this are candidates
 * @param ratioThresholdPct the gate: the small-file ratio (of the table in scope, then of each
 *     partition) at which compaction runs
 * @param targetFileSizeBytes the writer starts a new output file when one reaches this size
 * @param maxBinBytes input bytes one rewrite may read at most; longer runs of small files are cut
 *     into several bins (bounds scratch space and a single commit's work)
 * @param partitionFilter the partitions in scope
 * @param maxBytesPerRun input bytes one run may rewrite; the rest waits (empty = no limit)
 * @param layout bin-packing or Z-order
 * @param zOrderColumns the clustering columns when {@code layout} is Z_ORDER
 */
public record CompactionOptions(
    long smallFileThresholdBytes,
    double ratioThresholdPct,
    long targetFileSizeBytes,
    long maxBinBytes,
    PartitionFilter partitionFilter,
    OptionalLong maxBytesPerRun,
    Layout layout,
    List<String> zOrderColumns) {

  /** The default bin bound: eight target-size outputs, at least 1 GiB. */
  public static long defaultMaxBinBytes(long targetFileSizeBytes) {
    return Math.max(8 * targetFileSizeBytes, 1L << 30);
  }

  public CompactionOptions {
    Objects.requireNonNull(partitionFilter, "partitionFilter");
    Objects.requireNonNull(maxBytesPerRun, "maxBytesPerRun");
    Objects.requireNonNull(layout, "layout");
    zOrderColumns = List.copyOf(zOrderColumns);
    if (smallFileThresholdBytes <= 0 || targetFileSizeBytes <= 0 || maxBinBytes <= 0) {
      throw new IllegalArgumentException("sizes must be positive");
    }
  }
}
