package company.data.compactor.delta;

import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSnapshot;

/** Reads Delta tables: the port the inspector and pipeline use. Implementations are thread-safe. */
public interface DeltaTables {

  /**
   * Loads the latest version of the table at {@code location}.
   *
   * @throws company.data.compactor.error.CompactorException TABLE_NOT_FOUND when there is no Delta
   *     table there; UNSUPPORTED_TABLE when its protocol cannot be read; OPERATION_FAILED on
   *     storage or log errors
   */
  TableSnapshot loadLatest(TableLocation location);

  /**
   * Loads version {@code version} of the table at {@code location} (the snapshot a fan-out run
   * planned from, so every worker and the finalizer see the plan's files).
   *
   * @throws company.data.compactor.error.CompactorException as {@link #loadLatest};
   *     OPERATION_FAILED too when that version can no longer be read
   */
  TableSnapshot loadAt(TableLocation location, long version);

  /** Whether a Delta log with at least one commit exists at {@code location}. */
  boolean exists(TableLocation location);
}
