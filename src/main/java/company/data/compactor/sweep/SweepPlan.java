package company.data.compactor.sweep;

import company.data.compactor.storage.StoredObject;
import java.time.Instant;
import java.util.List;

/**
 * What a sweep will remove, decided by {@link SweepPlanner} from listings and the time.
 *
 * @param scratchCutoff scratch directories last modified before this are old enough
 * @param temporaryObjectCutoff temporary objects last modified before this are old enough
 * @param staleScratch our scratch directories old enough to go, if their lock is free (the executor
 *     checks the lock right before deleting)
 * @param youngScratch our scratch directories kept because they are younger than the cutoff
 * @param staleTemporaryObjects our temporary objects in the table old enough to go
 * @param youngTemporaryObjects our temporary objects kept because they are younger than the cutoff
 */
public record SweepPlan(
    Instant scratchCutoff,
    Instant temporaryObjectCutoff,
    List<ScratchDirectory> staleScratch,
    int youngScratch,
    List<StoredObject> staleTemporaryObjects,
    int youngTemporaryObjects) {

  public SweepPlan {
    staleScratch = List.copyOf(staleScratch);
    staleTemporaryObjects = List.copyOf(staleTemporaryObjects);
  }

  /** Bytes of the stale temporary objects. */
  public long staleTemporaryBytes() {
    return staleTemporaryObjects.stream().mapToLong(StoredObject::sizeBytes).sum();
  }
}
