package company.data.compactor.delta;

import company.data.compactor.model.DataFile;
import company.data.compactor.model.TableLocation;

/**
 * Loads the rows a data file's deletion vector deletes: the port the rewrite uses to drop them.
 * Implementations are thread-safe.
 */
public interface DeletionVectorLoader {

  /**
   * The 0-based positions, in the data file's row order, of the rows its deletion vector deletes,
   * ascending; empty when the file has no deletion vector.
   *
   * @throws company.data.compactor.error.CompactorException OPERATION_FAILED when the vector cannot
   *     be read, or it deletes another number of rows than the log's cardinality says
   */
  long[] deletedRows(TableLocation location, DataFile file);
}
