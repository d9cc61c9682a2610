package company.data.compactor.fanout;

import java.util.Locale;

/**
 * What one fan-out item did, returned by the worker to the state machine and read by Finalize.
 *
 * @param item the item's index
 * @param partition the partition's label
 * @param status the outcome
 * @param committedVersion the commit holding the partition's rewrite (this attempt's, or an earlier
 *     attempt's found in the log); null when none
 * @param filesRemoved input files replaced by this attempt
 * @param filesAdded files written by this attempt
 * @param bytesRemoved input bytes replaced by this attempt
 * @param bytesAdded bytes written by this attempt
 * @param rows rows rewritten by this attempt
 * @param durationMs the attempt's wall time
 * @param detail why, for anything but a commit
 */
public record ItemResult(
    int item,
    String partition,
    Status status,
    Long committedVersion,
    int filesRemoved,
    int filesAdded,
    long bytesRemoved,
    long bytesAdded,
    long rows,
    long durationMs,
    String detail) {

  /** Outcome of one item. */
  public enum Status {
    /** This attempt committed the partition's rewrite. */
    COMMITTED,
    /**
     * An earlier attempt of the same run committed it (the log shows a commit that removed exactly
     * these inputs without changing data); this attempt did nothing.
     */
    ALREADY_COMMITTED,
    /** Another writer removed an input; nothing committed. */
    CONFLICTED,
    /** Inputs and outputs differed; nothing committed. */
    VERIFICATION_FAILED,
    /** The run lost its table's lease; nothing committed. */
    FENCED,
    /**
     * The worker failed (an error, a timeout) and the log shows no commit of its inputs; a failure
     * whose commit the log does show counts as {@link #ALREADY_COMMITTED}.
     */
    FAILED;

    /** The report's word: lower case. */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** Whether the partition's rewrite is in the log. */
    public boolean landed() {
      return this == COMMITTED || this == ALREADY_COMMITTED;
    }
  }

  /** An item whose worker failed with {@code error}; nothing of it committed. */
  public static ItemResult failed(int item, String partition, String error) {
    return new ItemResult(item, partition, Status.FAILED, null, 0, 0, 0, 0, 0, 0, error);
  }
}
