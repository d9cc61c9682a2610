package company.data.compactor.loghygiene;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.delta.CheckpointOutcome;
import company.data.compactor.delta.TableCheckpointer;
import company.data.compactor.error.CompactorException;
import company.data.compactor.error.Errors;
import company.data.compactor.lease.LeaseGuard;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.Storage;
import company.data.compactor.storage.StoredObject;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * Log hygiene on one table: lists {@code _delta_log}, writes a classic checkpoint when {@code
 * delta.checkpointInterval} commits have gone by since the newest one, plans with {@link
 * LogCleanupPlanner} against the log as it then is, and (unless a dry run) deletes the expired
 * files in batches of {@value #DELETE_BATCH}, oldest first. A dry run writes nothing and plans as
 * if the due checkpoint had been written. Nothing is committed: Delta records no commit for log
 * cleanup either. When applying, the run's {@link LeaseGuard} is asked before the checkpoint and
 * again after it, right before the first delete: a run that lost its table's lease (another run
 * took it over) deletes nothing (fenced).
 */
public final class LogCleanupExecutor {

  private static final System.Logger LOG = System.getLogger(LogCleanupExecutor.class.getName());
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Keys per delete request (the S3 limit). */
  static final int DELETE_BATCH = 1000;

  private final Storage storage;
  private final TableCheckpointer checkpointer;
  private final LogCleanupPlanner planner;
  private LeaseGuard guard = LeaseGuard.UNGUARDED;

  public LogCleanupExecutor(
      Storage storage, TableCheckpointer checkpointer, LogCleanupPlanner planner) {
    this.storage = storage;
    this.checkpointer = checkpointer;
    this.planner = planner;
  }

  /**
   * Asks {@code guard} before writing a checkpoint and before deleting (fencing); {@link
   * LeaseGuard#UNGUARDED} unless set. Returns this executor.
   */
  public LogCleanupExecutor guardedBy(LeaseGuard guard) {
    this.guard = guard;
    return this;
  }

  /**
   * Checkpoints and cleans the log of the table of {@code snapshot}, following its properties.
   *
   * @throws company.data.compactor.error.CompactorException OPERATION_FAILED when the log cannot be
   *     listed or a delete fails (the message says how many were deleted)
   */
  public LogCleanupResult clean(TableSnapshot snapshot, LogCleanupMode mode) {
    TableLocation location = snapshot.location();
    LogSettings settings = LogSettings.of(snapshot.properties());
    LogState state = read(location);
    int listed = state.files().size();
    CheckpointDecision decision = CheckpointDecision.of(state, settings);
    CheckpointStatus status = CheckpointStatus.NOT_DUE;
    String detail = null;
    boolean leftAlone =
        snapshot.features().stream().anyMatch(LogCleanupPlanner.REFUSED_FEATURES::contains);
    if (decision.due() && leftAlone) {
      status = CheckpointStatus.SKIPPED;
      detail = "the table's log is left alone";
    } else if (decision.due() && mode == LogCleanupMode.DRY_RUN) {
      status = CheckpointStatus.WOULD_WRITE;
      state = planner.withCheckpointNow(state, decision.latestVersion());
    } else if (decision.due()) {
      String fenced = fenced();
      if (fenced != null) {
        LogCleanupPlan plan = planner.plan(state, settings, snapshot.features());
        return new LogCleanupResult(
            mode, decision, CheckpointStatus.SKIPPED, fenced, listed, plan, 0, 0, fenced);
      }
      CheckpointOutcome outcome = checkpointer.checkpoint(location, decision.latestVersion());
      status =
          switch (outcome.status()) {
            case WRITTEN -> CheckpointStatus.WRITTEN;
            case ALREADY_EXISTS -> CheckpointStatus.ALREADY_EXISTS;
            case FAILED -> CheckpointStatus.FAILED;
          };
      detail = outcome.detail();
      state = read(location);
    }
    LogCleanupPlan plan = planner.plan(state, settings, snapshot.features());
    LOG.log(
        Level.INFO,
        "log cleanup plan: table={0} latest={1} checkpoint={2} listed={3} expired={4} cutoff={5}"
            + " oldest_after={6} mode={7}{8}",
        location,
        decision.latestVersion(),
        status,
        listed,
        plan.expired().size(),
        plan.cutoff(),
        plan.oldestVersionAfter(),
        mode,
        plan.skippedReason() == null ? "" : " skipped: " + plan.skippedReason());
    if (mode == LogCleanupMode.DRY_RUN || plan.expired().isEmpty()) {
      return new LogCleanupResult(mode, decision, status, detail, listed, plan, 0, 0, null);
    }
    // Asked again after the checkpoint: the lease may have gone while it was written, and a run
    // that lost it must not delete what the run that now holds it may be reading or writing.
    String fenced = fenced();
    if (fenced != null) {
      return new LogCleanupResult(mode, decision, status, detail, listed, plan, 0, 0, fenced);
    }
    List<String> paths = new ArrayList<>();
    int outside = insideRealRoot(location, plan.expired(), paths);
    int deleted = delete(location, paths, plan.oldestVersionAfter());
    LOG.log(
        Level.INFO,
        "log cleanup done: table={0} deleted={1} oldest_version={2}",
        location,
        deleted,
        plan.oldestVersionAfter());
    return new LogCleanupResult(
        mode, decision, status, detail, listed, plan, deleted, outside, null);
  }

  /** Null while the lease is held; otherwise why this run may no longer write or delete. */
  private String fenced() {
    try {
      guard.assertHeld();
      return null;
    } catch (CompactorException e) {
      LOG.log(Level.WARNING, "log cleanup fenced, nothing deleted: {0}", e.getMessage());
      return e.getMessage();
    }
  }

  /** The log's files and the version {@code _last_checkpoint} names. */
  private LogState read(TableLocation location) {
    String logDirectory = location.child("_delta_log");
    try {
      List<LogFile> files = new ArrayList<>();
      for (StoredObject object : storage.listFrom(location.child("_delta_log/0"))) {
        LogFile.of(object).ifPresent(files::add);
      }
      return new LogState(logDirectory, files, lastCheckpoint(location));
    } catch (FileNotFoundException e) {
      throw Errors.tableNotFound(location, e);
    } catch (IOException e) {
      throw Errors.operationFailed("listing the log of " + location, e);
    }
  }

  /**
   * The version in {@code _last_checkpoint}; empty when it is missing or unreadable, as Delta
   * treats it (then nothing is deleted).
   */
  private OptionalLong lastCheckpoint(TableLocation location) {
    String path = location.child("_delta_log/_last_checkpoint");
    try (InputStream in = storage.openFrom(path, 0)) {
      JsonNode version = JSON.readTree(in).path("version");
      return version.canConvertToLong() && version.isIntegralNumber()
          ? OptionalLong.of(version.asLong())
          : OptionalLong.empty();
    } catch (FileNotFoundException e) {
      return OptionalLong.empty();
    } catch (IOException e) {
      LOG.log(
          Level.WARNING,
          "unreadable _last_checkpoint: table={0}: {1}; no log file is deleted",
          location,
          e.getMessage());
      return OptionalLong.empty();
    }
  }

  /**
   * Adds to {@code kept} the paths of {@code files} whose real path is inside the table root's real
   * path (every path on S3); returns how many were left out (a {@code _delta_log} that is a link
   * elsewhere is never cleaned through the link).
   */
  private int insideRealRoot(TableLocation location, List<LogFile> files, List<String> kept) {
    try {
      TableLocation realRoot =
          new TableLocation(TableLocation.canonicalPath(storage.realPath(location.uri())));
      int outside = 0;
      for (LogFile file : files) {
        String real = storage.realPath(file.path());
        if (real.equals(file.path()) || realRoot.contains(real)) {
          kept.add(file.path());
        } else {
          outside++;
          LOG.log(
              Level.WARNING,
              "log cleanup skips a file behind a symbolic link: table={0} path={1} real_path={2}",
              location,
              file.path(),
              real);
        }
      }
      return outside;
    } catch (IOException e) {
      throw Errors.operationFailed("resolving the real paths of the log of " + location, e);
    }
  }

  /** Deletes {@code paths} in order, {@value #DELETE_BATCH} per request. */
  private int delete(TableLocation location, List<String> paths, long oldestAfter) {
    int deleted = 0;
    for (int from = 0; from < paths.size(); from += DELETE_BATCH) {
      List<String> batch = paths.subList(from, Math.min(paths.size(), from + DELETE_BATCH));
      try {
        deleted += storage.deleteAll(batch);
      } catch (IOException e) {
        throw Errors.operationFailed(
            "deleting expired log files of "
                + location
                + " ("
                + deleted
                + " of "
                + paths.size()
                + " deleted so far; every version from "
                + oldestAfter
                + " on stays readable, and the next cleanup deletes the rest)",
            e);
      }
    }
    return deleted;
  }
}
