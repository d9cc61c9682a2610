package company.data.compactor.delta.kernel;

import company.data.compactor.delta.CheckpointOutcome;
import company.data.compactor.delta.TableCheckpointer;
import company.data.compactor.model.TableLocation;
import company.data.compactor.storage.Storage;
import io.delta.kernel.Table;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.exceptions.CheckpointAlreadyExistsException;
import io.delta.kernel.exceptions.KernelException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;

/**
 * {@link TableCheckpointer} on kernel's public {@code Table.checkpoint(engine, version)}. Kernel
 * deletes expired log files after a checkpoint only of a snapshot loaded as the latest; this one
 * loads the snapshot at {@code version}, so it never deletes: log cleanup stays with the
 * compactor's own planner, its dry run and its report.
 */
public final class KernelTableCheckpointer implements TableCheckpointer {

  private static final System.Logger LOG =
      System.getLogger(KernelTableCheckpointer.class.getName());

  private final Engine engine;

  public KernelTableCheckpointer(Storage storage) {
    this.engine = KernelEngines.over(storage);
  }

  @Override
  public CheckpointOutcome checkpoint(TableLocation location, long version) {
    try {
      Table.forPath(engine, location.uri()).checkpoint(engine, version);
      LOG.log(Level.INFO, "checkpoint written: table={0} version={1}", location, version);
      return new CheckpointOutcome(CheckpointOutcome.Status.WRITTEN, null);
    } catch (CheckpointAlreadyExistsException e) {
      return new CheckpointOutcome(CheckpointOutcome.Status.ALREADY_EXISTS, null);
    } catch (IOException | UncheckedIOException | KernelException e) {
      // The log stays readable without it; cleanup then plans with the checkpoints already there.
      String why = e.getClass().getSimpleName() + ": " + e.getMessage();
      LOG.log(
          Level.WARNING,
          "checkpoint not written: table={0} version={1}: {2}",
          location,
          version,
          why);
      return new CheckpointOutcome(CheckpointOutcome.Status.FAILED, why);
    }
  }
}
