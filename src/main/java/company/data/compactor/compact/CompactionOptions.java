package company.data.compactor.compact;

import company.data.compactor.model.SafetyLimits;
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
 * @param maxZOrderGroupBytes input bytes one Z-order group may read at most: rows are globally
 *     ordered within a group, and a group's inputs, outputs and sort spill must fit the scratch
 *     disk (Lambda: 10 GB)
 */
public record CompactionOptions(
    long smallFileThresholdBytes,
    double ratioThresholdPct,
    long targetFileSizeBytes,
    long maxBinBytes,
    PartitionFilter partitionFilter,
    OptionalLong maxBytesPerRun,
    Layout layout,
    List<String> zOrderColumns,
    long maxZOrderGroupBytes) {

  /**
   * Default {@code max_zorder_group_bytes}: 2 GiB, so inputs, outputs and spill fit Lambda's 10 GB.
   */
  public static final long DEFAULT_MAX_ZORDER_GROUP_BYTES = 2L << 30;

  /** Options with the default Z-order group bound. */
  public CompactionOptions(
      long smallFileThresholdBytes,
      double ratioThresholdPct,
      long targetFileSizeBytes,
      long maxBinBytes,
      PartitionFilter partitionFilter,
      OptionalLong maxBytesPerRun,
      Layout layout,
      List<String> zOrderColumns) {
    this(
        smallFileThresholdBytes,
        ratioThresholdPct,
        targetFileSizeBytes,
        maxBinBytes,
        partitionFilter,
        maxBytesPerRun,
        layout,
        zOrderColumns,
        DEFAULT_MAX_ZORDER_GROUP_BYTES);
  }

  /** The default bin bound: eight target-size outputs, at least 1 GiB. */
  public static long defaultMaxBinBytes(long targetFileSizeBytes) {
    return Math.max(8 * targetFileSizeBytes, 1L << 30);
  }

  public CompactionOptions {
    Objects.requireNonNull(partitionFilter, "partitionFilter");
    Objects.requireNonNull(maxBytesPerRun, "maxBytesPerRun");
    Objects.requireNonNull(layout, "layout");
    zOrderColumns = List.copyOf(zOrderColumns);
    if (layout == Layout.Z_ORDER
        && (zOrderColumns.isEmpty() || zOrderColumns.size() > SafetyLimits.MAX_Z_ORDER_COLUMNS)) {
      throw new IllegalArgumentException(
          "Z-order needs 1 to " + SafetyLimits.MAX_Z_ORDER_COLUMNS + " columns");
    }
    if (smallFileThresholdBytes <= 0
        || targetFileSizeBytes <= 0
        || maxBinBytes <= 0
        || maxZOrderGroupBytes <= 0) {
      throw new IllegalArgumentException("sizes must be positive");
    }
  }
}
