package company.data.compactor.loghygiene;

import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;

/**
 * What a table's log holds right now, as storage lists it.
 *
 * @param logDirectory the {@code _delta_log} directory's full path, without a trailing slash
 * @param files its commit, checkpoint and checksum files, sorted by name (version, then checkpoint
 *     before checksum before commit, as the listing orders them)
 * @param lastCheckpointVersion the version {@code _last_checkpoint} names; empty when it is missing
 *     or unreadable
 */
public record LogState(
    String logDirectory, List<LogFile> files, OptionalLong lastCheckpointVersion) {

  public LogState {
    files = files.stream().sorted(Comparator.comparing(LogFile::name)).toList();
  }

  /** The newest commit version listed; -1 without commits. */
  public long latestCommitVersion() {
    return files.stream()
        .filter(f -> f.kind() == LogFileKind.COMMIT)
        .mapToLong(LogFile::version)
        .max()
        .orElse(-1);
  }

  /** The oldest commit version listed; -1 without commits. */
  public long oldestCommitVersion() {
    return files.stream()
        .filter(f -> f.kind() == LogFileKind.COMMIT)
        .mapToLong(LogFile::version)
        .min()
        .orElse(-1);
  }

  /**
   * The newest version with a complete checkpoint (a single-part or v2 checkpoint, or every part of
   * a multi-part one); -1 without one.
   */
  public long newestCompleteCheckpointVersion() {
    long newest = -1;
    for (LogFile file : files) {
      if (file.isCheckpoint() && file.version() > newest && isComplete(file)) {
        newest = file.version();
      }
    }
    return newest;
  }

  /** Whether the checkpoint {@code file} belongs to is complete in this listing. */
  boolean isComplete(LogFile file) {
    if (file.parts() == 0) {
      return true;
    }
    long present =
        files.stream()
            .filter(
                f -> f.isCheckpoint() && f.version() == file.version() && f.parts() == file.parts())
            .count();
    return present == file.parts();
  }

  /**
   * This state with a classic checkpoint at {@code version} written at {@code nowMillis} and named
   * by {@code _last_checkpoint}: what the log will hold once a due checkpoint is written, so a dry
   * run plans what applying would delete.
   */
  LogState withCheckpoint(long version, long nowMillis) {
    List<LogFile> more = new java.util.ArrayList<>(files);
    more.add(
        new LogFile(
            logDirectory + "/" + String.format("%020d.checkpoint.parquet", version),
            version,
            LogFileKind.CHECKPOINT,
            0,
            1,
            nowMillis));
    long last = Math.max(version, lastCheckpointVersion.orElse(-1));
    return new LogState(logDirectory, more, OptionalLong.of(last));
  }
}
