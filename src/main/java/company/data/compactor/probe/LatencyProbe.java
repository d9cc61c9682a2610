package company.data.compactor.probe;

import company.data.compactor.model.PartitionValues;
import company.data.compactor.model.TableSnapshot;
import java.util.List;

/**
 * Measures what a reader of the table's storage pays to answer a representative query, at a bounded
 * cost: a capped sample, a time budget, and a skip with a reason instead of a failure when either
 * limit (or scratch) cannot hold it.
 */
public interface LatencyProbe {

  /**
   * Measures the sampled files of {@code partitions} before compaction.
   *
   * @param partitions partitions to sample (read again after compaction, so the figures compare)
   * @param elapsedMs the run's time so far, for the budget's estimate of the run
   * @param plannedBytes bytes the compaction plan rewrites, for the same estimate
   * @throws company.data.compactor.error.CompactorException OPERATION_FAILED when storage or the
   *     query fails (the pipeline reports that and goes on)
   */
  ProbeResult before(
      TableSnapshot snapshot, List<PartitionValues> partitions, long elapsedMs, long plannedBytes);

  /**
   * Measures the same partitions after compaction, from the files that now hold their rows, within
   * what {@code before} left of the budget.
   *
   * @throws company.data.compactor.error.CompactorException OPERATION_FAILED as {@link #before}
   */
  ProbeResult after(TableSnapshot snapshot, List<PartitionValues> partitions, ProbeResult before);

  /** The settings it runs with (caps, concurrency, runs), for the report. */
  ProbeSettings settings();

  /** How many partitions to read: the caller picks the most fragmented ones. */
  default int samplePartitions() {
    return settings().maxPartitions();
  }

  /** One sentence describing the method, for the report. */
  String method();
}
