package company.data.compactor.compact;

import company.data.compactor.model.PartitionValues;

/**
 * What the planner decided for one partition, and why.
 *
 * @param partition the partition
 * @param files active files in the partition
 * @param smallFiles candidates among them
 * @param outcome the decision
 * @param bins bins planned (including deferred ones)
 */
public record PartitionDecision(
    PartitionValues partition, int files, int smallFiles, Outcome outcome, int bins) {

  /** Why a partition is or is not compacted. */
  public enum Outcome {
    /** Bins were planned. */
    COMPACT,
    /** Outside {@code partition_filter}. */
    FILTERED_OUT,
    /** Its small-file ratio is below the gate (healthy partitions are not churned). */
    BELOW_GATE,
    /**
     * The ratio passes, but merging would not reduce the file count: one small file, small files
     * that would fill as many target-size outputs, or no two adjacent ones fit one output.
     */
    NOTHING_TO_MERGE,
    /** Every file was Z-ordered by these columns already and none has arrived since. */
    ALREADY_CLUSTERED
  }
}
