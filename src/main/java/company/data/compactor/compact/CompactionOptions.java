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
 * @param targetFileSizeBytes bins fill up to this expected output size; files are split there
 * @param partitionFilter the partitions in scope
 * @param maxBytesPerRun input bytes one run may rewrite; the rest waits (empty = no limit)
 * @param layout bin-packing or Z-order
 * @param zOrderColumns the clustering columns when {@code layout} is Z_ORDER
 */
public record CompactionOptions(
    long smallFileThresholdBytes,
    double ratioThresholdPct,
    long targetFileSizeBytes,
    PartitionFilter partitionFilter,
    OptionalLong maxBytesPerRun,
    Layout layout,
    List<String> zOrderColumns) {

  public CompactionOptions {
    Objects.requireNonNull(partitionFilter, "partitionFilter");
    Objects.requireNonNull(maxBytesPerRun, "maxBytesPerRun");
    Objects.requireNonNull(layout, "layout");
    zOrderColumns = List.copyOf(zOrderColumns);
    if (smallFileThresholdBytes <= 0 || targetFileSizeBytes <= 0) {
      throw new IllegalArgumentException("sizes must be positive");
    }
  }
}
