package company.data.compactor.report;

import java.util.List;

/**
 * What compaction did in one partition.
 *
 * @param partition label
 * @param partitionValues the partition's values (column to raw value, NULL as null): its identity
 * @param status {@code committed}, {@code conflicted}, {@code verification_failed} or {@code
 *     fenced} (the run lost its table's lease before this partition's commit)
 * @param committedVersion the commit's version, null when not committed
 * @param filesRemoved inputs replaced
 * @param filesAdded outputs written
 * @param bytesRemoved input bytes
 * @param bytesAdded output bytes
 * @param rows rows rewritten
 * @param detail why it did not commit
 * @param hookFailures post-commit hooks that failed after the commit
 */
public record CompactionPartitionReport(
    String partition,
    java.util.Map<String, String> partitionValues,
    String status,
    Long committedVersion,
    int filesRemoved,
    int filesAdded,
    long bytesRemoved,
    long bytesAdded,
    long rows,
    String detail,
    List<String> hookFailures) {}
