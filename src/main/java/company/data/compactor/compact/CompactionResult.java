package company.data.compactor.compact;

import java.util.List;

/**
 * What a compaction did, partition by partition; totals add up from the parts.
 *
 * @param versionBefore the version the plan was read from
 * @param versionAfter the table version after the last commit (versionBefore when none)
 * @param partitions each partition's outcome, in plan order
 * @param durationMs wall time of the execution
 * @param timings where that time went, phase by phase
 */
public record CompactionResult(
    long versionBefore,
    long versionAfter,
    List<PartitionResult> partitions,
    long durationMs,
    CompactionTimings timings) {

  public CompactionResult {
    partitions = List.copyOf(partitions);
    timings = timings == null ? CompactionTimings.NONE : timings;
  }

  /** A result whose phases were not timed. */
  public CompactionResult(
      long versionBefore, long versionAfter, List<PartitionResult> partitions, long durationMs) {
    this(versionBefore, versionAfter, partitions, durationMs, CompactionTimings.NONE);
  }

  private List<PartitionResult> committed() {
    return partitions.stream().filter(p -> p.status() == PartitionResult.Status.COMMITTED).toList();
  }

  public int filesRemoved() {
    return committed().stream().mapToInt(PartitionResult::filesRemoved).sum();
  }

  public int filesAdded() {
    return committed().stream().mapToInt(PartitionResult::filesAdded).sum();
  }

  public long bytesRemoved() {
    return committed().stream().mapToLong(PartitionResult::bytesRemoved).sum();
  }

  public long bytesAdded() {
    return committed().stream().mapToLong(PartitionResult::bytesAdded).sum();
  }

  public long rowsRewritten() {
    return committed().stream().mapToLong(PartitionResult::rows).sum();
  }

  /** Whether at least one rewrite landed. */
  public boolean compacted() {
    return !committed().isEmpty();
  }

  /** Input megabytes per second of wall time. */
  public double throughputMbPerSec() {
    return durationMs == 0 ? 0 : (bytesRemoved() / 1048576.0) / (durationMs / 1000.0);
  }
}
