package company.data.compactor.delta;

/**
 * What became of one checkpoint write.
 *
 * @param status written, already there, or failed
 * @param detail why it failed (null otherwise)
 */
public record CheckpointOutcome(Status status, String detail) {

  /** The outcomes of a checkpoint write. */
  public enum Status {
    /** The checkpoint and {@code _last_checkpoint} were written. */
    WRITTEN,
    /** Another writer had already written a checkpoint of that version. */
    ALREADY_EXISTS,
    /** Nothing usable was written; {@code detail} says why. */
    FAILED
  }
}
