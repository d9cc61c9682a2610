package company.data.compactor.delta.kernel;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import company.data.compactor.delta.CommitOutcome;
import company.data.compactor.delta.NewDataFile;
import company.data.compactor.delta.RewriteCommit;
import company.data.compactor.delta.RewriteCommitter;
import company.data.compactor.error.Errors;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.PartitionValues;
import company.data.compactor.storage.Storage;
import company.data.compactor.storage.StoredObject;
import io.delta.kernel.Operation;
import io.delta.kernel.Snapshot;
import io.delta.kernel.TableManager;
import io.delta.kernel.Transaction;
import io.delta.kernel.TransactionCommitResult;
import io.delta.kernel.commit.CommitFailedException;
import io.delta.kernel.commit.CommitMetadata;
import io.delta.kernel.commit.CommitResponse;
import io.delta.kernel.data.Row;
import io.delta.kernel.defaults.internal.json.JsonUtils;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.exceptions.CommitStateUnknownException;
import io.delta.kernel.exceptions.ConcurrentWriteException;
import io.delta.kernel.exceptions.KernelException;
import io.delta.kernel.hook.PostCommitHook;
import io.delta.kernel.internal.actions.AddFile;
import io.delta.kernel.internal.actions.RemoveFile;
import io.delta.kernel.internal.actions.SingleAction;
import io.delta.kernel.internal.commit.DefaultFileSystemManagedTableOnlyCommitter;
import io.delta.kernel.internal.data.GenericRow;
import io.delta.kernel.internal.files.ParsedPublishedDeltaData;
import io.delta.kernel.internal.util.FileNames;
import io.delta.kernel.internal.util.VectorUtils;
import io.delta.kernel.utils.CloseableIterable;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Commits rewrites through Delta kernel: {@code remove} + {@code add} actions with {@code
 * dataChange=false} and an {@code OPTIMIZE} commit info carrying {@code readVersion} and operation
 * metrics.
 *
 * <p>This is the one class that touches kernel's internal action classes (kernel has no public
 * builder for remove actions or data-change-free adds); its integration tests pin the behaviour.
 *
 * <p>Conflicts: kernel rebases the commit over concurrent commits and fails it with {@link
 * ConcurrentWriteException} when a winner removed one of our inputs (delete-delete) or changed the
 * metadata or protocol; that is {@link CommitOutcome.Conflicted}. Any failure whose outcome is not
 * known (storage error while writing the commit file, retries exhausted after such an error) is
 * thrown, so the caller keeps the new files.
 */
public final class KernelRewriteCommitter implements RewriteCommitter {

  private static final System.Logger LOG = System.getLogger(KernelRewriteCommitter.class.getName());
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Rebases over concurrent appends before giving up. */
  static final int MAX_REBASES = 10;

  private final Storage storage;
  private final Engine engine;
  private final Clock clock;

  /** Commits to tables on {@code storage}; removal timestamps come from {@code clock}. */
  public KernelRewriteCommitter(Storage storage, Clock clock) {
    this.storage = storage;
    this.engine = KernelEngines.over(storage);
    this.clock = clock;
  }

  @Override
  public CommitOutcome commitRewrite(RewriteCommit commit) {
    String where = commit.location() + " (read version " + commit.readVersion() + ")";
    TransactionCommitResult result;
    try {
      Snapshot snapshot =
          TableManager.loadSnapshot(commit.location().uri())
              .atVersion(commit.readVersion())
              .withCommitter(new OperationCommitter(storage, commit))
              .build(engine);
      Transaction txn =
          snapshot
              .buildUpdateTableTransaction(KernelEngines.ENGINE_INFO, Operation.MANUAL_UPDATE)
              .withMaxRetries(MAX_REBASES)
              .build(engine);
      result = txn.commit(engine, CloseableIterable.inMemoryIterable(KernelIterators.of(actions(commit))));
    } catch (ConcurrentWriteException e) {
      return new CommitOutcome.Conflicted(e.getMessage());
    } catch (CommitStateUnknownException e) {
      throw Errors.operationFailed("committing a rewrite of " + where + "; the commit may or may not have landed", e);
    } catch (KernelException | UncheckedIOException e) {
      throw Errors.operationFailed("committing a rewrite of " + where, e);
    }
    return new CommitOutcome.Committed(result.getVersion(), runHooks(result, commit));
  }

  private List<String> runHooks(TransactionCommitResult result, RewriteCommit commit) {
    List<String> failures = new ArrayList<>();
    for (PostCommitHook hook : result.getPostCommitHooks()) {
      try {
        hook.threadSafeInvoke(engine);
      } catch (IOException | RuntimeException e) {
        // The commit has landed; a failed checkpoint or checksum only costs readers time.
        String failure = hook.getType() + ": " + e.getClass().getSimpleName() + ": " + e.getMessage();
        failures.add(failure);
        LOG.log(
            Level.WARNING,
            "post-commit hook failed: table={0} version={1} hook={2}",
            commit.location(),
            result.getVersion(),
            failure);
      }
    }
    return failures;
  }

  private List<Row> actions(RewriteCommit commit) {
    long now = clock.millis();
    List<Row> actions = new ArrayList<>();
    for (DataFile file : commit.removed()) {
      actions.add(SingleAction.createRemoveFileSingleAction(removeRow(file, now)));
    }
    for (NewDataFile file : commit.added()) {
      actions.add(SingleAction.createAddFileSingleAction(addRow(file)));
    }
    return actions;
  }

  private static Row removeRow(DataFile file, long deletionTimestamp) {
    Map<Integer, Object> fields = new HashMap<>();
    fields.put(RemoveFile.FULL_SCHEMA.indexOf("path"), file.logPath());
    fields.put(RemoveFile.FULL_SCHEMA.indexOf("deletionTimestamp"), deletionTimestamp);
    fields.put(RemoveFile.FULL_SCHEMA.indexOf("dataChange"), false);
    fields.put(RemoveFile.FULL_SCHEMA.indexOf("extendedFileMetadata"), true);
    fields.put(RemoveFile.FULL_SCHEMA.indexOf("partitionValues"), partitionMap(file.partition()));
    fields.put(RemoveFile.FULL_SCHEMA.indexOf("size"), file.sizeBytes());
    return new GenericRow(RemoveFile.FULL_SCHEMA, fields);
  }

  private static Row addRow(NewDataFile file) {
    Map<Integer, Object> fields = new HashMap<>();
    fields.put(AddFile.FULL_SCHEMA.indexOf("path"), file.logPath());
    fields.put(AddFile.FULL_SCHEMA.indexOf("partitionValues"), partitionMap(file.partition()));
    fields.put(AddFile.FULL_SCHEMA.indexOf("size"), file.sizeBytes());
    fields.put(AddFile.FULL_SCHEMA.indexOf("modificationTime"), file.modificationTimeMillis());
    fields.put(AddFile.FULL_SCHEMA.indexOf("dataChange"), false);
    // Stats stay the exact string we computed: kernel's re-serialisation would floor timestamp
    // maxima to milliseconds, below the true maximum.
    fields.put(AddFile.FULL_SCHEMA.indexOf("stats"), file.statsJson());
    if (!file.tags().isEmpty()) {
      fields.put(AddFile.FULL_SCHEMA.indexOf("tags"), VectorUtils.stringStringMapValue(file.tags()));
    }
    return new GenericRow(AddFile.FULL_SCHEMA, fields);
  }

  private static io.delta.kernel.data.MapValue partitionMap(PartitionValues partition) {
    return VectorUtils.stringStringMapValue(partition.values());
  }

  /**
   * Writes the commit file like kernel's file-system committer (put-if-absent through the storage
   * port), with the commit info rewritten to say what the compactor did, as Delta Lake and
   * delta-rs record OPTIMIZE.
   */
  private static final class OperationCommitter extends DefaultFileSystemManagedTableOnlyCommitter {
    private final Storage storage;
    private final RewriteCommit commit;

    OperationCommitter(Storage storage, RewriteCommit commit) {
      this.storage = storage;
      this.commit = commit;
    }

    @Override
    public CommitResponse commit(
        Engine engine, CloseableIterator<Row> finalizedActions, CommitMetadata metadata)
        throws CommitFailedException {
      String path = FileNames.deltaFile(metadata.getDeltaLogDirPath(), metadata.getVersion());
      try {
        if (!storage.putIfAbsent(path, serialise(finalizedActions))) {
          throw new CommitFailedException(
              true, true, "Concurrent write detected for version " + metadata.getVersion());
        }
        StoredObject written = storage.stat(path);
        return new CommitResponse(
            ParsedPublishedDeltaData.forFileStatus(
                FileStatus.of(written.path(), written.sizeBytes(), written.modificationTimeMillis())));
      } catch (IOException e) {
        // Retryable without conflict: kernel retries, and if the file turns out to exist it
        // reports the state as unknown instead of resolving against our own commit.
        throw new CommitFailedException(true, false, "Failed to write " + path + ": " + e.getMessage(), e);
      }
    }

    private byte[] serialise(CloseableIterator<Row> actions) throws IOException {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      try (actions) {
        while (actions.hasNext()) {
          String line = JsonUtils.rowToJson(actions.next());
          ObjectNode node = (ObjectNode) JSON.readTree(line);
          if (node.has("commitInfo")) {
            line = JSON.writeValueAsString(decorate(node));
          }
          out.write(line.getBytes(StandardCharsets.UTF_8));
          out.write('\n');
        }
      }
      return out.toByteArray();
    }

    private ObjectNode decorate(ObjectNode node) {
      ObjectNode info = (ObjectNode) node.get("commitInfo");
      info.put("operation", commit.operation());
      ObjectNode parameters = info.putObject("operationParameters");
      commit.operationParameters().entrySet().stream()
          .sorted(Map.Entry.comparingByKey())
          .forEach(e -> parameters.put(e.getKey(), e.getValue()));
      info.put("readVersion", commit.readVersion());
      info.put("isolationLevel", "SnapshotIsolation");
      info.put("isBlindAppend", false);
      ObjectNode metrics = info.putObject("operationMetrics");
      commit.operationMetrics().entrySet().stream()
          .sorted(Map.Entry.comparingByKey())
          .forEach(e -> metrics.put(e.getKey(), e.getValue()));
      return node;
    }
  }
}
