package company.data.compactor.delta;

import java.util.List;

/**
 * What the log says about removed files, as far back as it still goes.
 *
 * @param latestVersion the newest version
 * @param oldestCommitVersion the oldest JSON commit still in the log
 * @param oldestCommitMillis that commit's timestamp
 * @param checkpointVersion the checkpoint the history starts from (-1 when none)
 * @param tombstones every file the log stopped referencing (see {@link Tombstone}): removed data
 *     files and their deletion-vector files from the checkpoint and every JSON commit still in the
 *     log, and change-data files of those commits; when a path was removed more than once, the
 *     latest removal
 * @param readdedPaths paths added again by a commit after their latest removal, and deletion-vector
 *     files an add references that no remove ever released
 */
public record LogHistory(
    long latestVersion,
    long oldestCommitVersion,
    long oldestCommitMillis,
    long checkpointVersion,
    List<Tombstone> tombstones,
    java.util.Set<String> readdedPaths) {

  public LogHistory {
    tombstones = List.copyOf(tombstones);
    readdedPaths = java.util.Set.copyOf(readdedPaths);
  }
}
