package company.data.compactor.vacuum;

import company.data.compactor.delta.CommitOutcome;
import company.data.compactor.delta.LaterAdds;
import company.data.compactor.delta.LogHistory;
import company.data.compactor.delta.LogReader;
import company.data.compactor.delta.RewriteCommit;
import company.data.compactor.delta.RewriteCommitter;
import company.data.compactor.error.CompactorException;
import company.data.compactor.error.Errors;
import company.data.compactor.lease.LeaseGuard;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.Storage;
import company.data.compactor.storage.StoredObject;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Runs vacuum on one table: reads the log history and the table's files, plans with {@link
 * VacuumPlanner}, and (unless a dry run) records {@code VACUUM START}, deletes in batches of
 * {@value #DELETE_BATCH}, several at once (files already gone count as deleted), and records {@code
 * VACUUM END}, as Delta Lake and delta-rs do, so other engines see it in the history.
 */
public final class VacuumExecutor {

  private static final System.Logger LOG = System.getLogger(VacuumExecutor.class.getName());

  /** Keys per delete request (the S3 limit). */
  public static final int DELETE_BATCH = 1000;

  /** Delete batches in flight at once. */
  static final int PARALLEL_DELETES = 16;

  /** How long a failed vacuum waits for its batches already deleting to finish. */
  static final java.time.Duration DRAIN_WAIT = java.time.Duration.ofMinutes(10);

  /** Files between progress lines of a long delete. */
  static final int PROGRESS_EVERY = 10_000;

  private final Storage storage;
  private final LogReader logs;
  private final RewriteCommitter committer;
  private final VacuumPlanner planner;
  private LeaseGuard guard = LeaseGuard.UNGUARDED;

  public VacuumExecutor(
      Storage storage, LogReader logs, RewriteCommitter committer, VacuumPlanner planner) {
    this.storage = storage;
    this.logs = logs;
    this.committer = committer;
    this.planner = planner;
  }

  /**
   * Asks {@code guard} before {@code VACUUM START}, before each batch of deletes and before {@code
   * VACUUM END} (fencing); {@link LeaseGuard#UNGUARDED} unless set. Returns this executor.
   */
  public VacuumExecutor guardedBy(LeaseGuard guard) {
    this.guard = guard;
    return this;
  }

  /**
   * Vacuums the table of {@code snapshot} (its latest version). A run that loses its table's lease
   * on the way stops where it is: no further delete, no further commit ({@link
   * VacuumResult#fencedReason()}).
   *
   * @throws company.data.compactor.error.CompactorException OPERATION_FAILED on storage errors
   */
  public VacuumResult vacuum(
      TableSnapshot snapshot, VacuumMode mode, int requestedHours, boolean dryRun) {
    return vacuum(snapshot, mode, requestedHours, dryRun, null);
  }

  /**
   * As {@link #vacuum(TableSnapshot, VacuumMode, int, boolean)}, over {@code listed}: every file
   * under the table root as storage listed it from the start of {@code snapshot}'s load on (the
   * vacuum command lists while the snapshot loads, for its sweep and for this), or null to list
   * them here, beside the log history read.
   *
   * <p>When the listing was taken does not decide what is read: the snapshot and the log history,
   * both read after the listing began, do. A file the listing missed is never a candidate, a listed
   * file deleted since is a no-op, and a commit the snapshot and the history do not see is as
   * unseen as it would be for a listing taken after the load. What an earlier listing can get wrong
   * is a file's age, when the file is rewritten in place after it was listed: before each batch of
   * deletes the store is asked again for the batch's modification times ({@link
   * Storage#modifiedSince}), and a file that is young by then is kept.
   */
  public VacuumResult vacuum(
      TableSnapshot snapshot,
      VacuumMode mode,
      int requestedHours,
      boolean dryRun,
      List<StoredObject> listed) {
    TableLocation location = snapshot.location();
    LogHistory history;
    List<StoredObject> objects;
    try {
      if (listed != null) {
        history = logs.read(location);
        objects = insideRealRoot(location, listed);
      } else {
        // Both only read, and each is a wait on storage: listing a big table and replaying its
        // whole log take about as long, so they run side by side.
        ExecutorService lister = Executors.newSingleThreadExecutor(daemon("vacuum-listing"));
        try {
          Future<List<StoredObject>> listing =
              lister.submit(() -> storage.listRecursively(location.uri()));
          history = logs.read(location);
          objects = insideRealRoot(location, listing.get());
        } finally {
          lister.shutdownNow();
        }
      }
    } catch (IOException e) {
      throw Errors.operationFailed("listing the files of " + location, e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException unchecked) {
        throw unchecked;
      }
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw Errors.operationFailed("listing the files of " + location, e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw Errors.operationFailed("listing the files of " + location + " (interrupted)", e);
    }
    VacuumPlan plan = planner.plan(snapshot, history, objects, mode, requestedHours);
    if (mode == VacuumMode.FULL
        && !VacuumPlanner.logCoversRetention(history, plan.cutoff().toEpochMilli())) {
      return new VacuumResult(
          plan,
          dryRun,
          0,
          null,
          null,
          "full mode needs every commit since the retention cutoff, but the oldest commit left in the log"
              + " (version "
              + history.oldestCommitVersion()
              + ") is younger than the cutoff; untracked files"
              + " could still be needed. Use lite mode, or a longer log retention.",
          null);
    }
    LaterCommits later = new LaterCommits(snapshot);
    try {
      plan =
          plan.without(later.keep(plan.candidates().stream().map(VacuumCandidate::path).toList()));
    } catch (AddedOutsideRoot outside) {
      throw Errors.refused("vacuum " + location, outside.getMessage());
    }
    LOG.log(
        Level.INFO,
        "vacuum plan: table={0} version={1} mode={2} retention_h={3} candidates={4} bytes={5} dry_run={6}",
        snapshot.location(),
        snapshot.version(),
        mode,
        plan.retention().hours(),
        plan.candidates().size(),
        plan.bytes(),
        dryRun);
    if (dryRun || plan.candidates().isEmpty()) {
      return new VacuumResult(plan, dryRun, 0, null, null, null, null);
    }
    // The plan may have taken minutes on a big table: the lease is asked again before anything is
    // committed or deleted, and before each batch, since another run may hold the table by then.
    String fenced = fenced();
    if (fenced != null) {
      return new VacuumResult(plan, false, 0, null, null, null, fenced);
    }
    long start =
        commit(
            snapshot,
            snapshot.version(),
            "VACUUM START",
            Map.of(
                "retentionCheckEnabled", "true",
                "specifiedRetentionMillis", String.valueOf(plan.retention().duration().toMillis()),
                "defaultRetentionMillis", String.valueOf(Retention.FLOOR.toMillis())),
            Map.of(
                "numFilesToDelete", String.valueOf(plan.candidates().size()),
                "sizeOfDataToDelete", String.valueOf(plan.bytes())));
    List<String> paths =
        new ArrayList<>(plan.candidates().stream().map(VacuumCandidate::path).toList());
    AtomicReference<String> lost = new AtomicReference<>();
    int deleted = deleteInBatches(snapshot, paths, plan.cutoff().toEpochMilli(), later, lost);
    if (lost.get() == null) {
      lost.set(fenced());
    }
    if (lost.get() != null) {
      LOG.log(
          Level.WARNING,
          "vacuum fenced: table={0} deleted={1} of {2}, no VACUUM END: {3}",
          snapshot.location(),
          deleted,
          paths.size(),
          lost.get());
      return new VacuumResult(plan, false, deleted, start, null, null, lost.get());
    }
    long end =
        commit(
            snapshot,
            start,
            "VACUUM END",
            Map.of("status", "COMPLETED"),
            Map.of("numDeletedFiles", String.valueOf(deleted), "numVacuumedDirectories", "0"));
    LOG.log(
        Level.INFO,
        "vacuum done: table={0} deleted={1} versions={2}..{3}",
        snapshot.location(),
        deleted,
        start,
        end);
    return new VacuumResult(plan, false, deleted, start, end, null, null);
  }

  /**
   * The listed objects that really are under the root: one reached through a symbolic link to
   * somewhere else (local disk) is dropped, so vacuum never deletes outside the root whatever the
   * listing followed. An object that is not behind a link (every object on S3) is kept as listed.
   */
  private List<StoredObject> insideRealRoot(TableLocation location, List<StoredObject> objects)
      throws IOException {
    TableLocation realRoot =
        new TableLocation(TableLocation.canonicalPath(storage.realPath(location.uri())));
    List<StoredObject> kept = new ArrayList<>();
    List<String> reals = storage.realPathsOfListed(objects);
    for (int i = 0; i < objects.size(); i++) {
      StoredObject object = objects.get(i);
      String real = reals.get(i);
      if (real.equals(object.path()) || realRoot.contains(real)) {
        kept.add(object);
      } else {
        LOG.log(
            Level.WARNING,
            "vacuum skips a file behind a symbolic link: table={0} path={1} real_path={2}",
            location,
            object.path(),
            real);
      }
    }
    return kept;
  }

  /**
   * The paths of a batch that still really lie under the root at delete time: a directory replaced
   * by a symbolic link since the plan was made (local disk) is not followed. Paths that are not
   * behind a link (every path on S3) are kept without a request.
   */
  private List<String> stillInside(
      TableLocation location, TableLocation realRoot, List<String> batch) throws IOException {
    List<String> kept = new ArrayList<>(batch.size());
    List<String> reals = storage.realPaths(batch);
    for (int i = 0; i < batch.size(); i++) {
      String path = batch.get(i);
      String real = reals.get(i);
      if (real.equals(path) || realRoot.contains(real)) {
        kept.add(path);
      } else {
        LOG.log(
            Level.WARNING,
            "vacuum skips a file now behind a symbolic link: table={0} path={1} real_path={2}",
            location,
            path,
            real);
      }
    }
    return kept;
  }

  /**
   * The paths of a batch that are still as old as the plan saw them: one modified at or after the
   * cutoff since it was listed (a file rewritten in place; Delta forbids it, but a writer may) is
   * young again and kept, as a listing taken now would have kept it. Where storage cannot tell
   * without a request per file (S3), the listing's times stand.
   */
  private List<String> unchanged(TableLocation location, List<String> batch, long cutoffMillis)
      throws IOException {
    Set<String> young = storage.modifiedSince(batch, cutoffMillis);
    if (young.isEmpty()) {
      return batch;
    }
    for (String path : young) {
      LOG.log(
          Level.WARNING,
          "vacuum keeps a file modified since it was listed: table={0} path={1}",
          location,
          path);
    }
    return batch.stream().filter(path -> !young.contains(path)).toList();
  }

  /**
   * Deletes {@code paths} in batches of {@value #DELETE_BATCH}, {@value #PARALLEL_DELETES} batches
   * in flight (one request each on S3), logging progress every {@value #PROGRESS_EVERY} files. Each
   * batch first asks the lease: once it is lost ({@code lost} set), no batch deletes. A batch that
   * fails (a delete, a re-check, a later commit that cannot be read) stops every batch not yet past
   * its checks; the ones already deleting finish, and only then does the error go out, saying how
   * many files were deleted: nothing is deleted after this method has returned.
   */
  private int deleteInBatches(
      TableSnapshot snapshot,
      List<String> paths,
      long cutoffMillis,
      LaterCommits later,
      AtomicReference<String> lost) {
    ExecutorService pool = Executors.newFixedThreadPool(PARALLEL_DELETES);
    AtomicInteger deleted = new AtomicInteger();
    AtomicReference<Throwable> failed = new AtomicReference<>();
    try {
      TableLocation realRoot =
          new TableLocation(
              TableLocation.canonicalPath(storage.realPath(snapshot.location().uri())));
      List<Future<Void>> batches = new ArrayList<>();
      for (int from = 0; from < paths.size(); from += DELETE_BATCH) {
        List<String> batch = paths.subList(from, Math.min(paths.size(), from + DELETE_BATCH));
        batches.add(
            pool.submit(
                (Callable<Void>)
                    () -> {
                      try {
                        int count =
                            deleteBatch(
                                snapshot, realRoot, batch, cutoffMillis, later, lost, failed);
                        int done = deleted.addAndGet(count);
                        if (done / PROGRESS_EVERY > (done - count) / PROGRESS_EVERY
                            && done < paths.size()) {
                          LOG.log(
                              Level.INFO,
                              "vacuum progress: table={0} deleted={1}/{2}",
                              snapshot.location(),
                              done,
                              paths.size());
                        }
                        return null;
                      } catch (Throwable t) {
                        failed.compareAndSet(null, t);
                        throw t;
                      }
                    }));
      }
      for (Future<Void> batch : batches) {
        batch.get();
      }
      return deleted.get();
    } catch (ExecutionException e) {
      drain(pool);
      if (e.getCause() instanceof AddedOutsideRoot outside) {
        throw Errors.refused(
            "delete more files of " + snapshot.location() + " (" + deleted.get() + " deleted)",
            outside.getMessage());
      }
      throw Errors.operationFailed(
          "deleting vacuum candidates of "
              + snapshot.location()
              + " ("
              + deleted.get()
              + " deleted so far)",
          e.getCause());
    } catch (IOException e) {
      throw Errors.operationFailed("resolving the real root of " + snapshot.location(), e);
    } catch (InterruptedException e) {
      failed.compareAndSet(null, e);
      drain(pool);
      Thread.currentThread().interrupt();
      throw Errors.operationFailed(
          "deleting vacuum candidates of "
              + snapshot.location()
              + " (interrupted, "
              + deleted.get()
              + " deleted so far)",
          e);
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * One batch: the lease, then the paths still inside the real root, still old, and added by no
   * commit since the snapshot, deleted; how many. None when the batch did not run (the lease lost,
   * or another batch failed).
   */
  private int deleteBatch(
      TableSnapshot snapshot,
      TableLocation realRoot,
      List<String> batch,
      long cutoffMillis,
      LaterCommits later,
      AtomicReference<String> lost,
      AtomicReference<Throwable> failed)
      throws IOException {
    if (lost.get() != null || failed.get() != null) {
      return 0;
    }
    String fenced = fenced();
    if (fenced != null) {
      lost.compareAndSet(null, fenced);
      return 0;
    }
    List<String> checked =
        unchanged(
            snapshot.location(), stillInside(snapshot.location(), realRoot, batch), cutoffMillis);
    // Last, just before the deletes: what commits since the snapshot added.
    Set<String> added = later.keep(checked);
    if (failed.get() != null) {
      return 0;
    }
    return storage.deleteAll(
        added.isEmpty() ? checked : checked.stream().filter(p -> !added.contains(p)).toList());
  }

  /**
   * Lets the batches already deleting finish (the others see the failure and do nothing), so that
   * the count is final and nothing is deleted once the caller has the error.
   */
  private static void drain(ExecutorService pool) {
    pool.shutdown();
    boolean interrupted = false;
    long deadline = System.nanoTime() + DRAIN_WAIT.toNanos();
    while (true) {
      try {
        if (!pool.awaitTermination(
            Math.max(0, deadline - System.nanoTime()), java.util.concurrent.TimeUnit.NANOSECONDS)) {
          LOG.log(
              Level.WARNING,
              "vacuum: delete batches still running {0} after a failure; not waiting longer",
              DRAIN_WAIT);
        }
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * The commits another writer lands after the snapshot vacuum planned from. One may add a
   * candidate again (a RESTORE, a writer re-adding a file it kept) or add an old file no earlier
   * commit named (full mode's untracked files); such a file is read from then on and must be kept.
   * The log is read again after the plan and before each batch of deletes, from the snapshot's
   * version on; concurrent batches share a read that began after they asked. A commit that lands
   * after a batch's read is not seen by that batch: the window is the batches already past their
   * reads, up to {@value #PARALLEL_DELETES} of {@value #DELETE_BATCH} files deleting at once. Delta
   * has no lock to close it; Delta Lake's and delta-rs's vacuums do not read the log again at all.
   * A later commit adding a file outside the root (by how it is spelled) stops the deletes: its
   * file could be one vacuum lists under another spelling.
   */
  private final class LaterCommits {
    private final TableLocation location;
    private final ReentrantLock lock = new ReentrantLock();
    private final AtomicLong reads = new AtomicLong();
    private final Set<String> added = ConcurrentHashMap.newKeySet();
    private long throughVersion;
    private long lastGoodRead;

    LaterCommits(TableSnapshot snapshot) {
      this.location = snapshot.location();
      this.throughVersion = snapshot.version();
    }

    /**
     * The paths of {@code candidates} that a commit after the snapshot added, each logged, from a
     * read of the log that began after this call.
     *
     * @throws CompactorException OPERATION_FAILED when a later commit cannot be read: what it adds
     *     is unknown, so nothing more may be deleted
     * @throws AddedOutsideRoot when a later commit adds a file outside the root
     */
    Set<String> keep(List<String> candidates) {
      long asked = reads.get();
      lock.lock();
      try {
        if (lastGoodRead <= asked) {
          long read = reads.incrementAndGet();
          LaterAdds found = logs.addedAfter(location, throughVersion);
          List<String> outside = found.paths().stream().filter(p -> !location.contains(p)).toList();
          if (!outside.isEmpty()) {
            throw new AddedOutsideRoot(location, throughVersion, outside);
          }
          added.addAll(found.paths());
          throughVersion = found.throughVersion();
          lastGoodRead = read;
        }
      } finally {
        lock.unlock();
      }
      if (added.isEmpty()) {
        return Set.of();
      }
      Set<String> kept = new HashSet<>();
      for (String path : candidates) {
        if (added.contains(path)) {
          kept.add(path);
          LOG.log(
              Level.WARNING,
              "vacuum keeps a file a commit after the snapshot added: table={0} path={1}",
              location,
              path);
        }
      }
      return kept;
    }
  }

  /**
   * A commit after the snapshot adds a file outside the table root (how a load would refuse the
   * table): under a root reached through a symbolic link, a file logged by its real path is one,
   * and the listing's spelling would never match it, so nothing more is deleted.
   */
  private static final class AddedOutsideRoot extends RuntimeException {
    AddedOutsideRoot(TableLocation location, long version, List<String> outside) {
      super(
          "a commit after version "
              + version
              + " adds "
              + outside.size()
              + " file"
              + (outside.size() == 1 ? "" : "s")
              + " outside the table root ("
              + Errors.named(outside)
              + "), which vacuum cannot match with the files it lists under "
              + location
              + ". Nothing more is deleted; the table needs paths under its root.",
          null,
          false,
          false);
    }
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return task -> {
      Thread thread = new Thread(task, name);
      thread.setDaemon(true);
      return thread;
    };
  }

  /** Null while the lease is held; otherwise why this run may no longer delete or commit. */
  private String fenced() {
    try {
      guard.assertHeld();
      return null;
    } catch (CompactorException e) {
      return e.getMessage();
    }
  }

  private long commit(
      TableSnapshot snapshot,
      long readVersion,
      String operation,
      Map<String, String> parameters,
      Map<String, String> metrics) {
    CommitOutcome outcome =
        committer.commitRewrite(
            new RewriteCommit(
                snapshot.location(),
                readVersion,
                List.of(),
                List.of(),
                operation,
                parameters,
                metrics));
    if (outcome instanceof CommitOutcome.Committed committed) {
      return committed.version();
    }
    throw Errors.operationFailed(
        "recording " + operation + " on " + snapshot.location(),
        new IllegalStateException(
            outcome instanceof CommitOutcome.Conflicted c
                ? c.reason()
                : ((CommitOutcome.Outpaced) outcome).reason()));
  }
}
