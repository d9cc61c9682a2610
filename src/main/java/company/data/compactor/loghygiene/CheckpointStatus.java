package company.data.compactor.loghygiene;

/** What log hygiene did about a checkpoint. */
public enum CheckpointStatus {
  /** Fewer than {@code delta.checkpointInterval} commits since the newest checkpoint. */
  NOT_DUE,
  /** Due, but this was a dry run: the plan assumes it written. */
  WOULD_WRITE,
  /** Due and written. */
  WRITTEN,
  /** Due, but another writer had just written it. */
  ALREADY_EXISTS,
  /** Due, but the write failed (e.g. a table feature kernel cannot write); cleanup went on. */
  FAILED,
  /** Not considered: the table's log is left alone (see the plan's skipped reason). */
  SKIPPED
}
