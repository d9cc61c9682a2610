package company.data.compactor.delta.kernel;

import io.delta.kernel.Snapshot;
import io.delta.kernel.commit.CommitFailedException;
import io.delta.kernel.commit.CommitMetadata;
import io.delta.kernel.commit.CommitResponse;
import io.delta.kernel.commit.Committer;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.internal.commit.DefaultFileSystemManagedTableOnlyCommitter;
import io.delta.kernel.utils.CloseableIterator;
import java.util.Optional;

/**
 * The last kernel snapshot one pipeline loaded, shared by its table reader ({@link
 * KernelDeltaTables}) and its committer ({@link KernelRewriteCommitter}): a run reads the table at
 * version N and commits from version N, and a version's content never changes, so the commit starts
 * from the snapshot the read already built instead of listing the log and replaying its protocol
 * and metadata again (on a log of 100,000 files, half a second per load).
 *
 * <p>Kernel keeps the committer in the snapshot, so every snapshot the reader builds carries {@link
 * #committer()}: it hands a commit to the committer the calling thread set ({@link #commitWith}),
 * and refuses one when none is set (a reader never commits).
 */
public final class KernelSnapshotShelf {

  /** A snapshot of the table at {@code uri} at {@code version} and the engine it was read with. */
  record Shelved(String uri, long version, Snapshot snapshot, Engine engine) {}

  private final ThreadLocal<Committer> current = new ThreadLocal<>();
  private final Committer committer = new ThisThreadsCommitter(current);
  private Shelved last;

  /** The committer every shared snapshot is built with. */
  Committer committer() {
    return committer;
  }

  /** Makes {@code operation} the committer of the commits this thread makes until {@link #done}. */
  void commitWith(Committer operation) {
    current.set(operation);
  }

  /** Ends {@link #commitWith} on this thread. */
  void done() {
    current.remove();
  }

  /**
   * Shelves {@code snapshot} of {@code uri}, read with {@code engine}, in place of the last one.
   */
  synchronized void put(String uri, Snapshot snapshot, Engine engine) {
    last = new Shelved(uri, snapshot.getVersion(), snapshot, engine);
  }

  /** The shelved snapshot of {@code uri} at {@code version}, if it is the one shelved last. */
  synchronized Optional<Shelved> get(String uri, long version) {
    return last != null && last.uri().equals(uri) && last.version() == version
        ? Optional.of(last)
        : Optional.empty();
  }

  /** Kernel's committer for shared snapshots: the committer of the commit this thread makes. */
  private static final class ThisThreadsCommitter
      extends DefaultFileSystemManagedTableOnlyCommitter {
    private final ThreadLocal<Committer> current;

    ThisThreadsCommitter(ThreadLocal<Committer> current) {
      this.current = current;
    }

    @Override
    public CommitResponse commit(
        Engine engine, CloseableIterator<Row> finalizedActions, CommitMetadata metadata)
        throws CommitFailedException {
      Committer operation = current.get();
      if (operation == null) {
        throw new IllegalStateException(
            "a snapshot read for inspection was asked to commit outside a rewrite commit");
      }
      return operation.commit(engine, finalizedActions, metadata);
    }
  }
}
