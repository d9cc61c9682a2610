package company.data.compactor.compact;

import company.data.compactor.model.PartitionValues;
import java.util.List;

/**
 * What happened to one partition's bins.
 *
 * @param partition the partition
 * @param status the outcome
 * @param committedVersion the version of the commit, when committed
 * @param filesRemoved input files replaced
 * @param filesAdded output files written
 * @param bytesRemoved input bytes replaced
 * @param bytesAdded output bytes written
 * @param rows rows rewritten (verified equal in inputs and outputs)
 * @param detail why, for anything but a commit
 * @param hookFailures post-commit hooks that failed after the commit (not fatal)
 */
public record PartitionResult(
    PartitionValues partition,
    Status status,
    Long committedVersion,
    int filesRemoved,
    int filesAdded,
    long bytesRemoved,
    long bytesAdded,
    long rows,
    String detail,
    List<String> hookFailures) {

  /** Outcome of a partition's rewrite. */
  public enum Status {
    /** The rewrite is in the log. */
    COMMITTED,
    /**
     * A concurrent commit removed an input or changed the table, or other writers won every commit
     * attempt; the new files were deleted.
     */
    CONFLICTED,
    /** Inputs and outputs differed in rows or checksum; nothing was uploaded or committed. */
    VERIFICATION_FAILED,
    /**
     * The run lost the table's lease to another run before this partition's commit; its new files
     * were deleted and nothing was committed (the run stops committing).
     */
    FENCED,
    /**
     * The worker of a fan-out item failed (an error, a timeout) and the log shows no commit of its
     * inputs: nothing of the partition changed.
     */
    FAILED
  }

  public PartitionResult {
    hookFailures = List.copyOf(hookFailures);
  }

  /** A partition whose rewrite did not land: nothing changed in the table. */
  public static PartitionResult notCommitted(
      PartitionValues partition, Status status, String detail) {
    return new PartitionResult(partition, status, null, 0, 0, 0, 0, 0, detail, List.of());
  }
}
