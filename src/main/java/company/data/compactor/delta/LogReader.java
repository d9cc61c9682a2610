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

  /**
   * What the commits after {@code version} add, read one version after another until the next one
   * does not exist yet. Vacuum asks before it deletes, so that a file another writer committed
   * after the snapshot it planned from (a file added again, or an old file no earlier commit
   * mentioned) is kept.
   *
   * @throws company.data.compactor.error.CompactorException OPERATION_FAILED when a commit cannot
   *     be read or parsed: what it adds is then unknown
   */
  LaterAdds addedAfter(TableLocation location, long version);
}
