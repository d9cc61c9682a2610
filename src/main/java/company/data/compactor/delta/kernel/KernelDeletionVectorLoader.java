package company.data.compactor.delta.kernel;

import company.data.compactor.delta.DeletionVectorLoader;
import company.data.compactor.error.Errors;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.DeletionVector;
import company.data.compactor.model.TableLocation;
import company.data.compactor.storage.Storage;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.internal.actions.DeletionVectorDescriptor;
import io.delta.kernel.internal.deletionvectors.DeletionVectorUtils;
import io.delta.kernel.internal.deletionvectors.RoaringBitmapArray;

/**
 * {@link DeletionVectorLoader} on Delta kernel: kernel's own loading ({@code
 * DeletionVectorUtils.loadNewDvAndBitmap}: inline vectors decoded, on-disk ones read at their
 * offset through the storage port, checksum checked, the portable 64-bit roaring format decoded),
 * never a decoder of our own. The count of deleted rows is checked against the logged cardinality.
 */
public final class KernelDeletionVectorLoader implements DeletionVectorLoader {

  private final Engine engine;

  /** Loads vectors of tables on {@code storage}. */
  public KernelDeletionVectorLoader(Storage storage) {
    this.engine = KernelEngines.over(storage);
  }

  @Override
  public long[] deletedRows(TableLocation location, DataFile file) {
    if (file.deletionVector().isEmpty()) {
      if (file.hasDeletionVector()) {
        throw Errors.operationFailed(
            "loading the deletion vector of " + file.logPath() + " in " + location,
            new IllegalStateException("the file has a deletion vector that was not read"));
      }
      return new long[0];
    }
    DeletionVector vector = file.deletionVector().get();
    String what = "loading the deletion vector of " + file.logPath() + " in " + location;
    long[] rows;
    try {
      DeletionVectorDescriptor descriptor =
          KernelDeletionVectors.descriptor(vector, file.logPath());
      RoaringBitmapArray bitmap =
          DeletionVectorUtils.loadNewDvAndBitmap(engine, location.uri(), descriptor)._2;
      rows = bitmap.toArray();
    } catch (RuntimeException e) {
      // Kernel reports every failure to read a vector (its file missing or short, a bad checksum
      // or format) as an unchecked exception, most as a plain RuntimeException("Couldn't load
      // dv") around the cause: wrapped once here, with the file and table.
      throw Errors.operationFailed(what, e.getCause() == null ? e : e.getCause());
    }
    if (rows.length != vector.cardinality()) {
      throw Errors.operationFailed(
          what,
          new IllegalStateException(
              "it deletes "
                  + rows.length
                  + " rows but the log says "
                  + vector.cardinality()
                  + "; the vector or the log is corrupt, so no row of it is rewritten"));
    }
    java.util.Arrays.sort(rows);
    return rows;
  }
}
