package company.data.compactor.loghygiene;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Decides which log files have expired, with Delta's rule (Delta Lake's {@code MetadataCleanup} and
 * {@code BufferingLogDeletionIterator}). Pure: a function of the log listing, the table's
 * properties and the injected clock.
 *
 * <ul>
 *   <li><b>Cutoff</b>: {@code now - delta.logRetentionDuration}, truncated to the previous midnight
 *       UTC (Delta keeps logs up to a day longer rather than checkpoint constantly).
 *   <li><b>Time</b>: a file's object modification time; when a file of a later version is not
 *       strictly newer than the file before it, it counts as 1 ms newer (Delta's monotonic
 *       adjustment, so time travel by timestamp keeps answering the same version).
 *   <li><b>Segments</b>: the files from one complete checkpoint (or the start of the log) up to the
 *       next complete checkpoint. A segment is deleted only as a whole, only when a complete
 *       checkpoint follows it, and only when its last file is at or before the cutoff and older
 *       than the checkpoint {@code _last_checkpoint} names. So every version from the oldest
 *       checkpoint left on can still be read, and the newest checkpoint is never deleted. Stricter
 *       than Delta in one case: every file of the segment must be at or before the cutoff (Delta
 *       looks at the last one only, which a log with clock skew and checksum files can make look
 *       older than a commit before it); so no log file newer than the cutoff is ever deleted.
 *   <li><b>Never</b>: without {@code _last_checkpoint} nothing is deleted; {@code _last_checkpoint}
 *       itself, {@code _sidecars/}, compacted log files and any other name are never candidates; an
 *       incomplete multi-part checkpoint is never deleted.
 *   <li><b>Confidence check</b>: the files left must start with a complete checkpoint and hold
 *       every commit from it to the newest; otherwise (a log with gaps) nothing is deleted.
 * </ul>
 */
public final class LogCleanupPlanner {

  /**
   * Features whose log cleanup has rules of its own (checkpoint protection, catalog-managed
   * commits): the compactor leaves such logs alone.
   */
  static final Set<String> REFUSED_FEATURES =
      Set.of("checkpointProtection", "catalogManaged", "catalogOwned-preview");

  private final Clock clock;

  public LogCleanupPlanner(Clock clock) {
    this.clock = clock;
  }

  /** Files last modified at or before this instant have expired. */
  public Instant cutoff(Duration retention) {
    long millis = clock.millis();
    long retentionMillis =
        retention.compareTo(Duration.ofMillis(Long.MAX_VALUE / 4)) > 0
            ? Long.MAX_VALUE / 4
            : retention.toMillis();
    return Instant.ofEpochMilli(millis - retentionMillis).truncatedTo(ChronoUnit.DAYS);
  }

  /** {@code state} once a checkpoint at {@code version} is written now (for dry runs). */
  public LogState withCheckpointNow(LogState state, long version) {
    return state.withCheckpoint(version, clock.millis());
  }

  /**
   * What may be deleted from the log of a table with {@code settings} and table {@code features}.
   */
  public LogCleanupPlan plan(LogState state, LogSettings settings, Set<String> features) {
    long oldest = state.oldestCommitVersion();
    Instant cutoff = settings.retention().map(this::cutoff).orElse(null);
    List<String> warnings = new ArrayList<>();
    String refusal = refusal(state, settings, features);
    if (refusal != null) {
      return new LogCleanupPlan(settings, cutoff, List.of(), oldest, oldest, refusal, warnings);
    }
    List<LogFile> expired =
        expired(
            state.files(), cutoff.toEpochMilli(), state.lastCheckpointVersion().getAsLong() - 1);
    String unsafe = reconstructible(state, expired);
    if (unsafe != null) {
      return new LogCleanupPlan(settings, cutoff, List.of(), oldest, oldest, unsafe, warnings);
    }
    Set<String> gone = new java.util.HashSet<>();
    expired.forEach(f -> gone.add(f.path()));
    long oldestAfter =
        state.files().stream()
            .filter(f -> f.kind() == LogFileKind.COMMIT && !gone.contains(f.path()))
            .mapToLong(LogFile::version)
            .min()
            .orElse(-1);
    return new LogCleanupPlan(settings, cutoff, expired, oldest, oldestAfter, null, warnings);
  }

  /** Why this log may not be cleaned at all, or null. */
  private static String refusal(LogState state, LogSettings settings, Set<String> features) {
    List<String> unreadable =
        settings.problems().stream()
            .filter(p -> p.startsWith(LogSettings.ENABLED) || p.startsWith(LogSettings.RETENTION))
            .toList();
    if (!unreadable.isEmpty()) {
      return String.join("; ", unreadable)
          + ": log cleanup fails closed and deleted nothing. Fix or unset the property.";
    }
    if (!settings.cleanupEnabled()) {
      return LogSettings.ENABLED
          + " is false: log cleanup is disabled for this table, nothing was"
          + " deleted";
    }
    List<String> refused =
        new TreeSet<>(features).stream().filter(REFUSED_FEATURES::contains).toList();
    if (!refused.isEmpty()) {
      return "the table uses "
          + String.join(", ", refused)
          + ", whose log cleanup has rules the compactor does not implement; nothing was deleted";
    }
    if (state.lastCheckpointVersion().isEmpty()) {
      return "the log has no _last_checkpoint (or it is unreadable): without a checkpoint no log"
          + " file can go, nothing was deleted";
    }
    return null;
  }

  /**
   * Delta's segment rule over the listing (see the class comment): the files of each segment
   * followed by a complete checkpoint whose last file (after the monotonic adjustment) is at or
   * before {@code cutoffMillis} and at or below {@code maxVersion}.
   */
  static List<LogFile> expired(List<LogFile> files, long cutoffMillis, long maxVersion) {
    List<LogFile> expired = new ArrayList<>();
    List<LogFile> segment = new ArrayList<>();
    Map<String, List<LogFile>> partsSeen = new HashMap<>();
    LogFile last = null;
    for (LogFile listed : files) {
      LogFile file = listed;
      // Times made monotonic in version order; a checkpoint stays a segment boundary however its
      // time was adjusted (on S3, with whole-second times, it often shares its commit's second).
      if (last != null
          && last.version() < file.version()
          && last.modificationTimeMillis() >= file.modificationTimeMillis()) {
        file = file.at(last.modificationTimeMillis() + 1);
      }
      if (last == null) {
        segment.add(file);
      } else if (file.isCheckpoint() && file.parts() == 0) {
        close(segment, expired, cutoffMillis, maxVersion);
        segment.add(file);
      } else if (file.isCheckpoint()) {
        List<LogFile> parts =
            partsSeen.computeIfAbsent(file.version() + "/" + file.parts(), k -> new ArrayList<>());
        parts.add(file);
        if (parts.size() == file.parts()) {
          close(segment, expired, cutoffMillis, maxVersion);
          segment.addAll(parts);
          partsSeen.remove(file.version() + "/" + file.parts());
        }
      } else {
        segment.add(file);
      }
      last = file;
    }
    // The last segment (from the newest complete checkpoint on) is never deleted.
    return expired;
  }

  private static void close(
      List<LogFile> segment, List<LogFile> expired, long cutoffMillis, long maxVersion) {
    if (!segment.isEmpty()) {
      LogFile last = segment.get(segment.size() - 1);
      long newest = segment.stream().mapToLong(LogFile::modificationTimeMillis).max().getAsLong();
      if (newest <= cutoffMillis && last.version() <= maxVersion) {
        expired.addAll(segment);
      }
    }
    segment.clear();
  }

  /**
   * Null when the files left after deleting {@code expired} start with a complete checkpoint and
   * hold every commit from it to the newest; otherwise why not.
   */
  private static String reconstructible(LogState state, List<LogFile> expired) {
    if (expired.isEmpty()) {
      return null;
    }
    long boundary = expired.stream().mapToLong(LogFile::version).max().getAsLong() + 1;
    Set<String> gone = new java.util.HashSet<>();
    expired.forEach(f -> gone.add(f.path()));
    List<LogFile> left = state.files().stream().filter(f -> !gone.contains(f.path())).toList();
    LogState after = new LogState(state.logDirectory(), left, state.lastCheckpointVersion());
    boolean checkpointAtBoundary =
        left.stream()
            .anyMatch(f -> f.isCheckpoint() && f.version() == boundary && after.isComplete(f));
    long[] commits =
        left.stream()
            .filter(f -> f.kind() == LogFileKind.COMMIT && f.version() >= boundary)
            .mapToLong(LogFile::version)
            .sorted()
            .toArray();
    boolean contiguous =
        commits.length > 0
            && commits[0] == boundary
            && commits[commits.length - 1] - boundary == commits.length - 1;
    if (checkpointAtBoundary && contiguous) {
      return null;
    }
    return "after deleting "
        + expired.size()
        + " expired files the log would not start with a complete checkpoint at version "
        + boundary
        + " followed by every commit to the newest (the log has gaps); nothing was deleted";
  }
}
