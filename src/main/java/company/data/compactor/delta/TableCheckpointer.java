package company.data.compactor.delta;

import company.data.compactor.model.TableLocation;

/** Writes classic checkpoints; the port log hygiene uses. */
public interface TableCheckpointer {

  /**
   * Writes a single-part classic checkpoint of {@code version} and points {@code _last_checkpoint}
   * at it. Deletes nothing (kernel's own log cleanup is not triggered). A failure is an outcome,
   * not an exception: a missing checkpoint only costs readers time.
   */
  CheckpointOutcome checkpoint(TableLocation location, long version);
}
