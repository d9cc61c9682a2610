package company.data.compactor.report;

import java.util.List;

/**
 * The compaction part of the report, with the blueprint's field names (unwrapped into the top level
 * of the report's JSON).
 *
 * @param compacted whether at least one rewrite was committed
 * @param versionBefore table version before compaction
 * @param versionAfter table version after it
 * @param filesBefore active files before
 * @param filesAfter active files after (filesBefore - filesRemoved + filesAdded, excluding other
 *     writers' concurrent commits)
 * @param filesRemoved small files replaced
 * @param filesAdded files written
 * @param filesReduced filesRemoved - filesAdded
 * @param bytesCompacted input bytes rewritten
 * @param bytesCompactedMb the same in MB
 * @param bytesWritten output bytes
 * @param bytesDeferred input bytes left for later runs by {@code max_bytes_per_run}
 * @param rowsRewritten rows rewritten, verified equal in inputs and outputs
 * @param compactionDurationMs wall time of the rewrite and commits
 * @param compactionMbPerSec input MB per second
 * @param compactionPlan the plan it executed
 * @param compactionPartitions what happened per partition
 */
public record CompactionReport(
    boolean compacted,
    long versionBefore,
    long versionAfter,
    int filesBefore,
    int filesAfter,
    int filesRemoved,
    int filesAdded,
    int filesReduced,
    long bytesCompacted,
    double bytesCompactedMb,
    long bytesWritten,
    long bytesDeferred,
    long rowsRewritten,
    long compactionDurationMs,
    double compactionMbPerSec,
    PlanReport compactionPlan,
    List<CompactionPartitionReport> compactionPartitions) {

  public CompactionReport {
    compactionPartitions = List.copyOf(compactionPartitions);
  }

  /** Status of a partition not committed because the run lost its table's lease. */
  public static final String FENCED = "fenced";

  /** Whether the run lost its table's lease during compaction and stopped committing. */
  public boolean fenced() {
    return compactionPartitions.stream().anyMatch(p -> p.status().equals(FENCED));
  }
}
