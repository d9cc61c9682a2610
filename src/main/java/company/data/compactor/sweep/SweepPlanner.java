package company.data.compactor.sweep;

import company.data.compactor.storage.LocalStorage;
import company.data.compactor.storage.Scratch;
import company.data.compactor.storage.StoredObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Decides which leftovers of killed runs a sweep removes: a pure function of two listings, the time
 * and the {@link SweepPolicy}. Only names we write are ever considered; anything else is not ours
 * and is left alone, whatever its age. "Older than" is strict: a leftover modified exactly at the
 * cutoff stays (as vacuum keeps a file modified exactly at its cutoff).
 */
public final class SweepPlanner {

  private SweepPlanner() {}

  /**
   * @param scratch the directories under the scratch root
   * @param tableObjects every object below the table root (any depth, hidden ones included)
   * @param now the time of the sweep
   */
  public static SweepPlan plan(
      List<ScratchDirectory> scratch,
      List<StoredObject> tableObjects,
      Instant now,
      SweepPolicy policy) {
    Instant scratchCutoff = now.minus(policy.scratchMinAge());
    Instant objectCutoff = now.minus(policy.temporaryObjectMinAge());
    List<ScratchDirectory> staleScratch = new ArrayList<>();
    int youngScratch = 0;
    for (ScratchDirectory dir : scratch) {
      if (!isScratchOfARun(dir.name())) {
        continue;
      }
      if (dir.modifiedAt().isBefore(scratchCutoff)) {
        staleScratch.add(dir);
      } else {
        youngScratch++;
      }
    }
    List<StoredObject> staleObjects = new ArrayList<>();
    int youngObjects = 0;
    for (StoredObject object : tableObjects) {
      if (!isOurTemporaryObject(object)) {
        continue;
      }
      if (object.modificationTimeMillis() < objectCutoff.toEpochMilli()) {
        staleObjects.add(object);
      } else {
        youngObjects++;
      }
    }
    return new SweepPlan(
        scratchCutoff, objectCutoff, staleScratch, youngScratch, staleObjects, youngObjects);
  }

  private static final String UUID_PATTERN =
      "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
  private static final java.util.regex.Pattern SCRATCH_NAME =
      java.util.regex.Pattern.compile(
          java.util.regex.Pattern.quote(Scratch.RUN_PREFIX) + UUID_PATTERN);
  private static final java.util.regex.Pattern TEMPORARY_NAME =
      java.util.regex.Pattern.compile(
          java.util.regex.Pattern.quote(LocalStorage.TEMP_PREFIX) + UUID_PATTERN + "-.+");

  /**
   * Whether a scratch root entry is named as a run's scratch directory: exactly {@code run-<uuid>},
   * as {@link Scratch#create} names it (a user's {@code run-logs} is not).
   */
  public static boolean isScratchOfARun(String name) {
    return SCRATCH_NAME.matcher(name).matches();
  }

  /**
   * Whether an object is named exactly as the temporary file we write beside a destination before
   * moving it into place ({@code .compactor-tmp-<uuid>-<name>}, see {@link LocalStorage}).
   */
  public static boolean isOurTemporaryObject(StoredObject object) {
    return TEMPORARY_NAME.matcher(object.name()).matches();
  }
}
