package company.data.compactor.delta;

import company.data.compactor.model.TableLocation;

/** Reads the remove history of a table's log (kernel has no public API for tombstones). */
public interface LogReader {

  /**
   * Reads tombstones from the JSON commits and the latest checkpoint. Kernel-written checkpoints
   * may drop unexpired tombstones, so the JSON commits after and before it are read too, as far
   * back as they exist.
   *
   * @throws company.data.compactor.error.CompactorException OPERATION_FAILED on storage or parse
   *     errors
   */
  LogHistory read(TableLocation location);
}
