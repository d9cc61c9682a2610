package company.data.compactor.vacuum;

import company.data.compactor.delta.LogHistory;
import company.data.compactor.delta.Tombstone;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.DeletionVector;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.StoredObject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Decides what vacuum may delete. Pure: a function of the snapshot, the log history, the listing of
 * the table's files and the injected clock. A file is deleted only when every rule agrees:
 *
 * <ul>
 *   <li>the current snapshot does not read it (an active data file or the deletion-vector file of
 *       one), and no commit added it again after its removal;
 *   <li>no retained version reads it: its latest tombstone is older than the cutoff (the
 *       tombstone's time is the later of its {@code deletionTimestamp} and its commit's time; the
 *       log tombstones a removed file's deletion-vector file with it, and a change-data file when
 *       the version after its own is committed). Lite mode deletes only such files; full mode also
 *       untracked files (no tombstone at all);
 *   <li>its object modification time is older than the cutoff, whatever the log says;
 *   <li>no path segment is hidden ({@code _} or {@code .} prefix), except {@code _change_data},
 *       {@code _delta_index} and {@code col=value} partition directories; {@code _delta_log} is
 *       never touched.
 * </ul>
 */
public final class VacuumPlanner {

  private final Clock clock;

  public VacuumPlanner(Clock clock) {
    this.clock = clock;
  }

  /**
   * @param objects every file under the table root, as storage lists it
   */
  public VacuumPlan plan(
      TableSnapshot snapshot,
      LogHistory history,
      List<StoredObject> objects,
      VacuumMode mode,
      int requestedHours) {
    Retention retention = Retention.effective(requestedHours, snapshot.properties());
    Instant cutoff = clock.instant().minus(retention.duration());
    long cutoffMillis = cutoff.toEpochMilli();
    Set<String> active = liveFiles(snapshot);
    Map<String, Tombstone> tombstones = new HashMap<>();
    for (Tombstone t : history.tombstones()) {
      tombstones.put(t.path(), t);
    }
    String root = snapshot.location().uri() + "/";
    List<String> partitionColumns = snapshot.schema().partitionColumns();
    List<VacuumCandidate> candidates = new ArrayList<>();
    int young = 0;
    int unexpired = 0;
    int hidden = 0;
    for (StoredObject object : objects) {
      if (!object.path().startsWith(root)) {
        continue;
      }
      String relative = object.path().substring(root.length());
      if (isHidden(relative, partitionColumns)) {
        hidden++;
        continue;
      }
      if (active.contains(object.path()) || history.readdedPaths().contains(object.path())) {
        continue;
      }
      Tombstone tombstone = tombstones.get(object.path());
      String reason;
      if (tombstone != null) {
        if (tombstone.removedAtMillis() >= cutoffMillis) {
          unexpired++;
          continue;
        }
        reason = "expired_tombstone";
      } else if (mode == VacuumMode.FULL) {
        reason = "untracked";
      } else {
        continue;
      }
      if (object.modificationTimeMillis() >= cutoffMillis) {
        young++;
        continue;
      }
      candidates.add(new VacuumCandidate(object.path(), object.sizeBytes(), reason));
    }
    return new VacuumPlan(
        mode,
        retention,
        cutoff,
        candidates,
        young,
        unexpired,
        hidden,
        warnings(snapshot, retention));
  }

  /**
   * Every file the current snapshot reads: its data files and their deletion-vector files (an
   * inline vector has no file). Paths outside the table root are never listed, so never deleted.
   */
  static Set<String> liveFiles(TableSnapshot snapshot) {
    Set<String> live = new HashSet<>();
    for (DataFile file : snapshot.activeFiles()) {
      live.add(file.path());
      file.deletionVector().flatMap(DeletionVector::file).ifPresent(live::add);
    }
    return live;
  }

  private static List<String> warnings(TableSnapshot snapshot, Retention retention) {
    List<String> warnings = new ArrayList<>();
    Optional<Duration> logRetention = Retention.logRetention(snapshot.properties());
    if (logRetention.isEmpty()) {
      warnings.add(
          "table property "
              + Retention.LOG_RETENTION_PROPERTY
              + " = '"
              + snapshot.properties().get(Retention.LOG_RETENTION_PROPERTY)
              + "' is not a Delta interval: vacuum ignores"
              + " it, but Delta writers may refuse the table or clean its log on their default of 30 days");
    }
    logRetention
        .filter(log -> log.compareTo(retention.duration()) > 0)
        .ifPresent(
            log ->
                warnings.add(
                    "file retention "
                        + retention.hours()
                        + " h is shorter than"
                        + " delta.logRetentionDuration ("
                        + log.toHours()
                        + " h): time travel to versions older than "
                        + retention.hours()
                        + " h will fail after this vacuum"));
    return warnings;
  }

  /**
   * Whether the log is complete enough to trust: every commit since the cutoff must still be in the
   * log, otherwise tombstones of recent removals may be missing and an untracked-looking file could
   * still be needed by a retained version.
   */
  public static boolean logCoversRetention(LogHistory history, long cutoffMillis) {
    return history.oldestCommitVersion() == 0 || history.oldestCommitMillis() <= cutoffMillis;
  }

  /**
   * Delta's hidden-path rule, applied to every segment of a path relative to the table root: a
   * segment starting with {@code _} or {@code .} is hidden unless it is a directory named {@code
   * <column>=<value>} for the table's partition column at that depth (the first directory for the
   * first partition column, and so on; the column name compared after Hive unescaping, e.g. {@code
   * %3D} to {@code =}), or a top-level {@code _change_data} or {@code _delta_index} directory,
   * below which partition directories start again at depth 0. {@code _delta_log} is always hidden.
   * Being stricter than Delta here only keeps files: hidden files are never deleted.
   */
  static boolean isHidden(String relative, List<String> partitionColumns) {
    if (!startsHiddenSegment(relative)) {
      // No segment starts with '_' or '.': nothing below can be hidden (every listed file of a
      // table without such directories, so the split is skipped for nearly all of them).
      return false;
    }
    String[] segments = relative.split("/");
    int first =
        segments.length > 1
                && (segments[0].equals("_change_data") || segments[0].equals("_delta_index"))
            ? 1
            : 0;
    for (int i = first; i < segments.length; i++) {
      String segment = segments[i];
      if (!segment.startsWith("_") && !segment.startsWith(".")) {
        continue;
      }
      boolean directory = i < segments.length - 1;
      if (directory && isPartitionDirectory(segment, partitionColumns, i - first)) {
        continue;
      }
      return true;
    }
    return false;
  }

  /**
   * Whether any {@code /}-separated segment of {@code relative} starts with {@code _} or {@code .}.
   */
  private static boolean startsHiddenSegment(String relative) {
    return relative.startsWith("_")
        || relative.startsWith(".")
        || relative.contains("/_")
        || relative.contains("/.");
  }

  private static boolean isPartitionDirectory(
      String segment, List<String> partitionColumns, int depth) {
    int equals = segment.indexOf('=');
    return equals > 0
        && depth < partitionColumns.size()
        && unescapeHive(segment.substring(0, equals)).equals(partitionColumns.get(depth));
  }

  /**
   * Hive's path unescaping: {@code %XX} (two hex digits) is that character; anything else stays.
   */
  static String unescapeHive(String escaped) {
    StringBuilder out = new StringBuilder(escaped.length());
    for (int i = 0; i < escaped.length(); i++) {
      char c = escaped.charAt(i);
      if (c == '%'
          && i + 2 < escaped.length()
          && Character.digit(escaped.charAt(i + 1), 16) >= 0
          && Character.digit(escaped.charAt(i + 2), 16) >= 0) {
        out.append((char) Integer.parseInt(escaped.substring(i + 1, i + 3), 16));
        i += 2;
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
