package company.data.compactor.delta.kernel;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import company.data.compactor.delta.CommitOutcome;
import company.data.compactor.delta.NewDataFile;
import company.data.compactor.delta.RewriteCommit;
import company.data.compactor.delta.RewriteCommitter;
import company.data.compactor.error.Errors;
import company.data.compactor.model.ColumnMappingMode;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.PartitionValues;
import company.data.compactor.model.RetryPolicy;
import company.data.compactor.model.TableSchema;
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
 * metadata or protocol. A commit is only called {@link CommitOutcome.Conflicted} once the log after
 * the read version is read and proves that no version holds our transaction ({@code
 * commitInfo.txnId}) and none adds our new files; a failure after which the log holds our
 * transaction is {@link CommitOutcome.Committed} (a lost response, or retries exhausted after the
 * write had in fact landed). Any other failure is thrown with what was left behind and how to
 * check, so the caller keeps the new files.
 *
 * <p>Contention: when the version we try was taken by another writer, the committer first judges
 * that one commit itself ({@link FastRebase}): a commit that only appends, or removes files other
 * than ours, cannot conflict with a rewrite, so the same actions are written at the next version at
 * once. Kernel's own rebase re-lists the log and re-reads every commit since the read version on
 * each attempt, which under a steady appender on an object store takes longer than the gap between
 * two appends, so a long-running compaction never landed. Anything else (a protocol, metadata or
 * domain change, a remove of one of our inputs, an unreadable line) goes to kernel's conflict
 * resolution as before. The fast path is off where the commit's content depends on its version
 * (in-commit timestamps, row tracking, domain metadata).
 */
public final class KernelRewriteCommitter implements RewriteCommitter {

  private static final System.Logger LOG = System.getLogger(KernelRewriteCommitter.class.getName());
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Rebases over concurrent appends before giving up. */
  static final int MAX_REBASES = 10;

  /**
   * Foreign commits one commit call may step over by judging them itself before leaving the rest to
   * kernel's rebase (each costs one conditional PUT and one GET).
   */
  static final int MAX_FAST_REBASES = 1_000;

  private final Storage storage;
  private final Clock clock;
  private final RetryPolicy retries;

  /**
   * The snapshots shared with the run's table reader, and the committer of the commit this thread
   * is making: kernel keeps the committer in the snapshot, and the snapshot is shared by a run's
   * commits (see {@link #snapshotAt}).
   */
  private final KernelSnapshotShelf shelf;

  /** The last snapshot loaded: a run commits each partition from the same read version. */
  private LoadedSnapshot lastLoaded;

  /**
   * The table just after the last commit this committer landed at the version after its read
   * version, in one attempt: kernel's post-commit snapshot, which is the read snapshot plus that
   * one commit of ours. A commit made from that version next (vacuum's {@code VACUUM END} after its
   * {@code VACUUM START}) starts from it instead of loading the table again.
   */
  private LoadedSnapshot lastCommitted;

  /** Commits to tables on {@code storage}; removal timestamps come from {@code clock}. */
  public KernelRewriteCommitter(Storage storage, Clock clock) {
    this(storage, clock, RetryPolicy.defaults());
  }

  /**
   * As {@link #KernelRewriteCommitter(Storage, Clock)}; a commit write that fails without an answer
   * is retried after {@code retries}' backoff, up to its attempts (rebases over concurrent commits
   * count apart, up to {@value #MAX_REBASES}).
   */
  public KernelRewriteCommitter(Storage storage, Clock clock, RetryPolicy retries) {
    this(storage, clock, retries, new KernelSnapshotShelf());
  }

  /**
   * As {@link #KernelRewriteCommitter(Storage, Clock, RetryPolicy)}; a commit from the version the
   * reader sharing {@code shelf} loaded last starts from that reader's snapshot.
   */
  public KernelRewriteCommitter(
      Storage storage, Clock clock, RetryPolicy retries, KernelSnapshotShelf shelf) {
    this.storage = storage;
    this.clock = clock;
    this.retries = retries;
    this.shelf = shelf;
  }

  @Override
  public CommitOutcome commitRewrite(RewriteCommit commit) {
    String where = commit.location() + " (read version " + commit.readVersion() + ")";
    LoadedSnapshot loaded;
    try {
      loaded = snapshotAt(commit);
    } catch (KernelException | UncheckedIOException e) {
      throw Errors.operationFailed("committing a rewrite of " + where, e);
    }
    Engine engine = loaded.engine();
    OperationCommitter committer =
        new OperationCommitter(storage, commit, retries, loaded.ourCommits());
    TransactionCommitResult result;
    shelf.commitWith(committer);
    try {
      Snapshot snapshot = loaded.snapshot();
      Transaction txn =
          snapshot
              .buildUpdateTableTransaction(KernelEngines.ENGINE_INFO, Operation.MANUAL_UPDATE)
              .withMaxRetries(MAX_REBASES)
              .build(engine);
      result =
          txn.commit(
              engine,
              CloseableIterable.inMemoryIterable(
                  KernelIterators.of(actions(commit, physicalNames(snapshot)))));
    } catch (ConcurrentWriteException e) {
      return afterFailure(commit, committer, e, true);
    } catch (KernelException | UncheckedIOException e) {
      if (committer.attempts() == 0) {
        throw Errors.operationFailed("committing a rewrite of " + where, e);
      }
      // MaxCommitRetryLimitReachedException: kernel cannot tell whether an attempt landed; the log
      // can.
      return afterFailure(commit, committer, e, false);
    } catch (CommitStateUnknownException e) {
      return afterFailure(commit, committer, e, false);
    } catch (RuntimeException e) {
      // Kernel wraps a non-retryable commit failure in a plain RuntimeException.
      if (committer.attempts() == 0) {
        throw e;
      }
      return afterFailure(commit, committer, e, false);
    } finally {
      shelf.done();
    }
    if (committer.fastRebases() > 0) {
      LOG.log(
          Level.INFO,
          "commit landed after stepping over {0} other writers'' commits: table={1} version={2}"
              + " (read version {3})",
          committer.fastRebases(),
          commit.location(),
          result.getVersion(),
          commit.readVersion());
    }
    keepPostCommitSnapshot(commit, loaded, committer, result);
    return new CommitOutcome.Committed(result.getVersion(), runHooks(result, commit, engine));
  }

  /**
   * Keeps kernel's post-commit snapshot of a commit that landed at the version right after its read
   * version at the first attempt (no rebase of kernel's or ours, so it is exactly the read snapshot
   * plus our actions), for the next commit made from that version.
   */
  private void keepPostCommitSnapshot(
      RewriteCommit commit,
      LoadedSnapshot loaded,
      OperationCommitter committer,
      TransactionCommitResult result) {
    if (committer.attempts() != 1
        || committer.fastRebases() != 0
        || result.getVersion() != commit.readVersion() + 1) {
      return;
    }
    result
        .getPostCommitSnapshot()
        .filter(after -> after.getVersion() == result.getVersion())
        .ifPresent(
            after -> {
              synchronized (this) {
                lastCommitted =
                    new LoadedSnapshot(
                        loaded.uri(),
                        result.getVersion(),
                        after,
                        loaded.engine(),
                        new java.util.concurrent.ConcurrentHashMap<>());
              }
            });
  }

  /**
   * The table at the commit's read version. A run commits each partition from the version its plan
   * was read from, so the snapshot loaded for the first commit serves the next ones: a version's
   * content never changes, and loading it again lists the log and, on a table without a checksum
   * file at that version, reads every commit since the last checkpoint for the protocol and
   * metadata (one GET each on an object store, per partition). The first commit itself starts from
   * the snapshot the run's reader built at that version when it shares this committer's shelf, and
   * a commit from the version of our last commit from kernel's post-commit snapshot of it. Kernel
   * keeps the committer in the snapshot, so the snapshot's committer hands each commit to the
   * committer of the thread making it.
   */
  private LoadedSnapshot snapshotAt(RewriteCommit commit) {
    String uri = commit.location().uri();
    LoadedSnapshot kept = keptSnapshotAt(uri, commit.readVersion());
    if (kept != null && stillInLog(kept)) {
      return kept;
    }
    synchronized (this) {
      lastLoaded = null;
      lastCommitted = null;
    }
    Engine loading = KernelEngines.over(withLogTail(commit.location()));
    Snapshot snapshot =
        TableManager.loadSnapshot(uri)
            .atVersion(commit.readVersion())
            .withCommitter(shelf.committer())
            .build(loading);
    LoadedSnapshot loaded =
        new LoadedSnapshot(
            uri,
            commit.readVersion(),
            snapshot,
            loading,
            new java.util.concurrent.ConcurrentHashMap<>());
    synchronized (this) {
      lastLoaded = loaded;
    }
    return loaded;
  }

  /** The snapshot kept in memory at {@code version} of the table at {@code uri}, or null. */
  private synchronized LoadedSnapshot keptSnapshotAt(String uri, long version) {
    if (lastLoaded != null && lastLoaded.uri().equals(uri) && lastLoaded.version() == version) {
      return lastLoaded;
    }
    if (lastCommitted != null
        && lastCommitted.uri().equals(uri)
        && lastCommitted.version() == version) {
      return lastCommitted;
    }
    var read = shelf.get(uri, version);
    if (read.isEmpty()) {
      return null;
    }
    lastLoaded =
        new LoadedSnapshot(
            uri,
            version,
            read.get().snapshot(),
            read.get().engine(),
            new java.util.concurrent.ConcurrentHashMap<>());
    return lastLoaded;
  }

  /**
   * Whether the log still holds the commit file a kept snapshot was read up to, as it was then (its
   * size, and its time to the second): a snapshot kept since the read would otherwise let a commit
   * land where the log no longer leads to it. Another writer's log cleanup after a newer checkpoint
   * deletes that file, and a commit at the next version would then land below the checkpoint,
   * unseen by every reader of the latest version; a table deleted and created again at the same
   * place has another file there or none, and a commit at the next version would break its log.
   * Loading the read version again fails in both cases, as it did before snapshots were kept. A
   * snapshot read at a checkpoint's version is checked by that checkpoint's files.
   */
  private boolean stillInLog(LoadedSnapshot kept) {
    if (!(kept.snapshot() instanceof io.delta.kernel.internal.SnapshotImpl snapshot)) {
      return false;
    }
    var segment = snapshot.getLogSegment();
    String commitFile = "/" + String.format("%020d.json", snapshot.getVersion());
    String checkpointFile = "/" + String.format("%020d.checkpoint", snapshot.getVersion());
    List<FileStatus> anchors =
        segment.getDeltas().stream().filter(d -> d.getPath().endsWith(commitFile)).toList();
    if (anchors.isEmpty()) {
      // Read at a checkpoint's version: that checkpoint's files are what the log led to.
      anchors =
          segment.getCheckpoints().stream()
              .filter(c -> c.getPath().contains(checkpointFile))
              .toList();
    }
    if (anchors.isEmpty()) {
      return false;
    }
    try {
      for (FileStatus anchor : anchors) {
        StoredObject now = storage.stat(anchor.getPath());
        if (now.sizeBytes() != anchor.getSize()
            || now.modificationTimeMillis() / 1000 != anchor.getModificationTime() / 1000) {
          return false;
        }
      }
      return true;
    } catch (IOException | UncheckedIOException e) {
      return false;
    }
  }

  /**
   * The storage with the log's tail fetched many at once (see {@link PrefetchedLogTail}): kernel
   * replays it one file at a time for the protocol and metadata, then again for the domain metadata
   * at the first commit. The plain storage when it cannot be fetched ahead (kernel then reads it
   * and reports what is wrong).
   */
  private Storage withLogTail(company.data.compactor.model.TableLocation location) {
    try {
      return PrefetchedLogTail.of(storage, location, KernelDeltaTables.LOG_TAIL_CONCURRENCY);
    } catch (IOException | UncheckedIOException e) {
      return storage;
    }
  }

  /**
   * A snapshot of the table at {@code uri} at {@code version}, the engine it was loaded with (its
   * log tail in memory; commit files never change), and the commits this committer wrote on it (by
   * version, their exact bytes): the next commit from the same version judges those from memory
   * instead of writing at each taken version and reading it back.
   */
  private record LoadedSnapshot(
      String uri, long version, Snapshot snapshot, Engine engine, Map<Long, byte[]> ourCommits) {}

  /**
   * Decides a failed or conflicted commit by what the log holds: our {@code txnId} at some version
   * means it landed (kernel may have rebased over its own commit after a lost response); a conflict
   * whose new files no commit references is {@link CommitOutcome.Conflicted}; anything else is
   * thrown, and the new files stay.
   */
  private CommitOutcome afterFailure(
      RewriteCommit commit,
      OperationCommitter committer,
      RuntimeException failure,
      boolean conflict) {
    List<String> newPaths = commit.added().stream().map(NewDataFile::logPath).toList();
    CommitEvidence evidence;
    try {
      evidence =
          CommitEvidence.read(
              storage, commit.location(), commit.readVersion(), committer.txnId(), newPaths);
    } catch (IOException | RuntimeException e) {
      throw Errors.commitFailed(
          "The "
              + commit.operation()
              + " commit of "
              + commit.location()
              + " (read version "
              + commit.readVersion()
              + ") failed ("
              + failure.getMessage()
              + ") and the log could not be read to tell whether it landed ("
              + e.getMessage()
              + "). "
              + howToCheck(commit, committer),
          failure);
    }
    if (evidence.landed()) {
      long version = evidence.ourVersion().getAsLong();
      LOG.log(
          Level.WARNING,
          "commit landed although kernel reported {0}: table={1} version={2} txn={3} (a lost response; the log holds our commit)",
          failure.getClass().getSimpleName(),
          commit.location(),
          version,
          committer.txnId());
      return new CommitOutcome.Committed(version, List.of());
    }
    if (!evidence.newFilesUnreferenced()) {
      throw Errors.commitFailed(
          "The "
              + commit.operation()
              + " commit of "
              + commit.location()
              + " failed ("
              + failure.getMessage()
              + "), yet versions after "
              + commit.readVersion()
              + " add "
              + evidence.referencedNewPaths()
              + " of its new files; nothing was deleted. "
              + howToCheck(commit, committer),
          failure);
    }
    if (committer.unprovenAt().isPresent()) {
      throw Errors.commitFailed(
          "The "
              + commit.operation()
              + " commit of "
              + commit.location()
              + " may or may not have landed: "
              + committer.unprovenAt().get()
              + ". The log up to version "
              + evidence.latestVersion()
              + " does not hold it yet; the new files were kept. "
              + howToCheck(commit, committer),
          failure);
    }
    if (conflict) {
      return new CommitOutcome.Conflicted(failure.getMessage());
    }
    if (committer.lastAttemptFoundForeignCommit()) {
      // Rebases ran out while other writers kept committing first: a lost race, not a conflict.
      return new CommitOutcome.Outpaced(failure.getMessage());
    }
    throw Errors.commitFailed(
        "The "
            + commit.operation()
            + " commit of "
            + commit.location()
            + " was not written: every attempt to write "
            + committer.lastPath()
            + " failed ("
            + committer.attempts()
            + " attempts; last: "
            + committer.lastFailure()
            + "). The log up to version "
            + evidence.latestVersion()
            + " holds no commit of this run, so the table is"
            + " unchanged. "
            + orphans(commit),
        failure);
  }

  private static String howToCheck(RewriteCommit commit, OperationCommitter committer) {
    return "To check: read "
        + committer.lastPath()
        + " (and later versions); if a commitInfo there has txnId "
        + committer.txnId()
        + " the "
        + commit.operation()
        + " is committed, otherwise nothing of it is. "
        + orphans(commit);
  }

  private static String orphans(RewriteCommit commit) {
    if (commit.added().isEmpty()) {
      return "It wrote no data files.";
    }
    List<String> paths = commit.added().stream().map(NewDataFile::path).toList();
    return "Its "
        + paths.size()
        + " new file(s) "
        + paths
        + " were kept in case a write still lands; if"
        + " nothing references them they are orphans that a full-mode vacuum (--vacuum-mode full) deletes once"
        + " they are older than the retention period.";
  }

  private List<String> runHooks(
      TransactionCommitResult result, RewriteCommit commit, Engine engine) {
    List<String> failures = new ArrayList<>();
    for (PostCommitHook hook : result.getPostCommitHooks()) {
      if (hook.getType() == PostCommitHook.PostCommitHookType.CHECKSUM_FULL) {
        // Kernel offers the full checksum when it cannot derive the new one from the read
        // version's (no .crc there, as delta-rs writes none, or the commit landed past read
        // version + 1, as every partition's commit after a run's first does): it lists the log
        // and reads every commit since the last checkpoint, one GET each on an object store, for
        // every partition (half of a partition's commit requests; a fifth of vacuuming 100,000
        // tombstones). Checksum files are optional; readers and the next commits do without, as
        // they did before. The simple checksum, derived from the read version's, still runs.
        continue;
      }
      try {
        hook.threadSafeInvoke(engine);
      } catch (IOException | RuntimeException e) {
        // The commit has landed; a failed checkpoint or checksum only costs readers time.
        String failure =
            hook.getType() + ": " + e.getClass().getSimpleName() + ": " + e.getMessage();
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

  /**
   * The log's key for each partition column: its physical name under column mapping (the model keys
   * partition values by the schema's names), else its name.
   */
  private static TableSchema physicalNames(Snapshot snapshot) {
    return KernelTypes.toModel(
        snapshot.getSchema(),
        snapshot.getPartitionColumnNames(),
        ColumnMappingMode.of(snapshot.getTableProperties()));
  }

  private List<Row> actions(RewriteCommit commit, TableSchema schema) {
    long now = clock.millis();
    List<Row> actions = new ArrayList<>();
    for (DataFile file : commit.removed()) {
      actions.add(SingleAction.createRemoveFileSingleAction(removeRow(file, now, schema)));
    }
    for (NewDataFile file : commit.added()) {
      actions.add(SingleAction.createAddFileSingleAction(addRow(file, schema)));
    }
    return actions;
  }

  private static Row removeRow(DataFile file, long deletionTimestamp, TableSchema schema) {
    Map<Integer, Object> fields = new HashMap<>();
    fields.put(RemoveFile.FULL_SCHEMA.indexOf("path"), file.logPath());
    fields.put(RemoveFile.FULL_SCHEMA.indexOf("deletionTimestamp"), deletionTimestamp);
    fields.put(RemoveFile.FULL_SCHEMA.indexOf("dataChange"), false);
    fields.put(RemoveFile.FULL_SCHEMA.indexOf("extendedFileMetadata"), true);
    fields.put(
        RemoveFile.FULL_SCHEMA.indexOf("partitionValues"), partitionMap(file.partition(), schema));
    fields.put(RemoveFile.FULL_SCHEMA.indexOf("size"), file.sizeBytes());
    // A logical file is its path and its deletion vector: the remove names the same pair.
    file.deletionVector()
        .ifPresent(
            dv ->
                fields.put(
                    RemoveFile.FULL_SCHEMA.indexOf("deletionVector"),
                    KernelDeletionVectors.descriptor(dv, file.logPath()).toRow()));
    return new GenericRow(RemoveFile.FULL_SCHEMA, fields);
  }

  private static Row addRow(NewDataFile file, TableSchema schema) {
    Map<Integer, Object> fields = new HashMap<>();
    fields.put(AddFile.FULL_SCHEMA.indexOf("path"), file.logPath());
    fields.put(
        AddFile.FULL_SCHEMA.indexOf("partitionValues"), partitionMap(file.partition(), schema));
    fields.put(AddFile.FULL_SCHEMA.indexOf("size"), file.sizeBytes());
    fields.put(AddFile.FULL_SCHEMA.indexOf("modificationTime"), file.modificationTimeMillis());
    fields.put(AddFile.FULL_SCHEMA.indexOf("dataChange"), false);
    // Stats stay the exact string we computed: kernel's re-serialisation would floor timestamp
    // maxima to milliseconds, below the true maximum.
    fields.put(AddFile.FULL_SCHEMA.indexOf("stats"), file.statsJson());
    if (!file.tags().isEmpty()) {
      fields.put(
          AddFile.FULL_SCHEMA.indexOf("tags"), VectorUtils.stringStringMapValue(file.tags()));
    }
    return new GenericRow(AddFile.FULL_SCHEMA, fields);
  }

  private static io.delta.kernel.data.MapValue partitionMap(
      PartitionValues partition, TableSchema schema) {
    Map<String, String> logged = new java.util.LinkedHashMap<>();
    partition.values().forEach((column, value) -> logged.put(schema.physicalName(column), value));
    return VectorUtils.stringStringMapValue(logged);
  }

  /**
   * Writes the commit file like kernel's file-system committer (put-if-absent through the storage
   * port), with the commit info rewritten to say what the compactor did, as Delta Lake and delta-rs
   * record OPTIMIZE.
   *
   * <p>The conditional write is never judged by its answer alone: when it fails or finds a file
   * there (a retried request meeting its own earlier, lost-response attempt answers 412), the file
   * is read back. Our exact bytes mean the commit is ours and landed; other bytes are another
   * writer's commit (a conflict kernel rebases over); no file means nothing landed yet, and the
   * write is retried after a backoff; a file that cannot be read leaves the outcome unproven.
   */
  private static final class OperationCommitter extends DefaultFileSystemManagedTableOnlyCommitter {
    private final Storage storage;
    private final RewriteCommit commit;
    private final RetryPolicy retries;
    private String txnId;
    private String lastPath;
    private String lastFailure;
    private String unproven;
    private boolean lastAttemptFoundForeignCommit;
    private int attempts;
    private int failuresInARow;
    private int fastRebases;
    private long nextVersion = -1;
    private final FastRebase fastRebase;
    private final Map<Long, byte[]> ourCommits;

    OperationCommitter(
        Storage storage, RewriteCommit commit, RetryPolicy retries, Map<Long, byte[]> ourCommits) {
      this.storage = storage;
      this.commit = commit;
      this.retries = retries;
      this.fastRebase = FastRebase.forInputs(commit.location(), commit.removed());
      this.ourCommits = ourCommits;
    }

    /** Foreign commits this call stepped over by judging them itself. */
    int fastRebases() {
      return fastRebases;
    }

    String txnId() {
      return txnId;
    }

    String lastPath() {
      return lastPath;
    }

    String lastFailure() {
      return lastFailure;
    }

    int attempts() {
      return attempts;
    }

    boolean lastAttemptFoundForeignCommit() {
      return lastAttemptFoundForeignCommit;
    }

    /** Why an attempt's outcome could not be proven either way, if one could not. */
    java.util.Optional<String> unprovenAt() {
      return java.util.Optional.ofNullable(unproven);
    }

    @Override
    public CommitResponse commit(
        Engine engine, CloseableIterator<Row> finalizedActions, CommitMetadata metadata)
        throws CommitFailedException {
      byte[] content;
      try {
        content = serialise(finalizedActions);
      } catch (IOException e) {
        throw new CommitFailedException(
            false,
            false,
            "Failed to serialise the commit for version "
                + metadata.getVersion()
                + ": "
                + e.getMessage(),
            e);
      }
      boolean versionFree = FastRebase.contentIndependentOfVersion(metadata);
      // After stepping over foreign commits ourselves, kernel retries at its own (older) version.
      long version = Math.max(metadata.getVersion(), nextVersion);
      // Versions this committer wrote from the same read version (a run's earlier partitions):
      // their
      // bytes are known, so they are judged as a foreign commit read back would be, without the
      // PUT that finds them taken and the GET that reads them.
      byte[] ours;
      while (versionFree
          && (ours = ourCommits.get(version)) != null
          && fastRebase.cannotConflict(ours)) {
        version++;
      }
      while (true) {
        String path = FileNames.deltaFile(metadata.getDeltaLogDirPath(), version);
        attempts++;
        lastPath = path;
        lastAttemptFoundForeignCommit = false;
        nextVersion = version;
        IOException failure = null;
        try {
          if (storage.putIfAbsent(path, content)) {
            return written(path, version, content);
          }
        } catch (IOException e) {
          failure = e;
        }
        java.util.Optional<byte[]> stored;
        try {
          stored = readIfPresent(path);
        } catch (IOException e) {
          unproven =
              "writing "
                  + path
                  + (failure == null
                      ? " found a file there"
                      : " failed (" + failure.getMessage() + ")")
                  + " and reading it back failed too ("
                  + e.getMessage()
                  + ")";
          throw new CommitFailedException(false, false, unproven, e);
        }
        if (CommitEvidence.sameBytes(stored, content)) {
          LOG.log(
              Level.INFO,
              "commit write answered {0} but {1} holds our commit (a lost response): table={2}",
              failure == null ? "412" : failure.getMessage(),
              path,
              commit.location());
          return written(path, version, content);
        }
        if (stored.isPresent()) {
          failuresInARow = 0;
          if (versionFree
              && fastRebases < MAX_FAST_REBASES
              && fastRebase.cannotConflict(stored.get())) {
            fastRebases++;
            version++;
            continue;
          }
          lastAttemptFoundForeignCommit = true;
          throw new CommitFailedException(
              true, true, "Concurrent write detected for version " + version);
        }
        // Nothing there: nothing landed. Retry (kernel retries the same version) after a backoff.
        lastFailure =
            failure == null
                ? "the store reported a concurrent write in flight"
                : failure.getMessage();
        failuresInARow++;
        if (!retries.allowsAnotherAfter(failuresInARow)) {
          throw new CommitFailedException(
              false,
              false,
              "Failed to write " + path + " " + failuresInARow + " times; last: " + lastFailure,
              failure);
        }
        pause(
            retries.backoff(
                failuresInARow, java.util.concurrent.ThreadLocalRandom.current()::nextDouble));
        // Retryable without conflict: kernel calls again and we try this version again.
        throw new CommitFailedException(
            true, false, "Failed to write " + path + ": " + lastFailure, failure);
      }
    }

    private CommitResponse written(String path, long version, byte[] content)
        throws CommitFailedException {
      failuresInARow = 0;
      ourCommits.put(version, content);
      try {
        StoredObject written = storage.stat(path);
        return new CommitResponse(
            ParsedPublishedDeltaData.forFileStatus(
                FileStatus.of(
                    written.path(), written.sizeBytes(), written.modificationTimeMillis())));
      } catch (IOException e) {
        unproven =
            "the commit "
                + path
                + " was written but could not be read back ("
                + e.getMessage()
                + ")";
        throw new CommitFailedException(false, false, unproven, e);
      }
    }

    private java.util.Optional<byte[]> readIfPresent(String path) throws IOException {
      try (java.io.InputStream in = storage.openFrom(path, 0)) {
        return java.util.Optional.of(in.readAllBytes());
      } catch (java.io.FileNotFoundException e) {
        return java.util.Optional.empty();
      }
    }

    private static void pause(java.time.Duration wait) {
      try {
        Thread.sleep(wait.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    private byte[] serialise(CloseableIterator<Row> actions) throws IOException {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      try (actions) {
        while (actions.hasNext()) {
          String line = JsonUtils.rowToJson(actions.next());
          ObjectNode node = (ObjectNode) JSON.readTree(line);
          if (node.has("commitInfo")) {
            txnId = node.get("commitInfo").path("txnId").asText(txnId);
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
