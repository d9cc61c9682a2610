package company.data.compactor.loghygiene;

import company.data.compactor.storage.StoredObject;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One file of a table's {@code _delta_log} that log cleanup may consider, named as the Delta
 * protocol names them.
 *
 * @param path full storage path
 * @param version the table version the file belongs to
 * @param kind commit, checkpoint or checksum
 * @param parts parts of a multi-part checkpoint, 0 for a single-part or v2 checkpoint and for every
 *     other kind
 * @param sizeBytes its size
 * @param modificationTimeMillis its object modification time, epoch milliseconds
 */
public record LogFile(
    String path,
    long version,
    LogFileKind kind,
    int parts,
    long sizeBytes,
    long modificationTimeMillis) {

  private static final Pattern COMMIT = Pattern.compile("(\\d{20})\\.json");
  private static final Pattern CHECKSUM = Pattern.compile("(\\d{20})\\.crc");
  private static final Pattern CLASSIC_CHECKPOINT =
      Pattern.compile("(\\d{20})\\.checkpoint(?:\\.(\\d{10})\\.(\\d{10}))?\\.parquet");
  private static final Pattern V2_CHECKPOINT =
      Pattern.compile("(\\d{20})\\.checkpoint\\.[^.]+\\.(?:json|parquet)");

  /**
   * The log file {@code object} is, or empty for any other name ({@code _last_checkpoint},
   * compacted log files, temporary and hidden files): cleanup never deletes those.
   */
  public static Optional<LogFile> of(StoredObject object) {
    String name = object.name();
    Matcher m;
    if ((m = COMMIT.matcher(name)).matches()) {
      return Optional.of(file(object, m, LogFileKind.COMMIT, 0));
    }
    if ((m = CHECKSUM.matcher(name)).matches()) {
      return Optional.of(file(object, m, LogFileKind.CHECKSUM, 0));
    }
    if ((m = CLASSIC_CHECKPOINT.matcher(name)).matches()) {
      int parts = m.group(3) == null ? 0 : Integer.parseInt(m.group(3));
      return Optional.of(file(object, m, LogFileKind.CHECKPOINT, parts));
    }
    if ((m = V2_CHECKPOINT.matcher(name)).matches()) {
      return Optional.of(file(object, m, LogFileKind.CHECKPOINT, 0));
    }
    return Optional.empty();
  }

  private static LogFile file(StoredObject object, Matcher m, LogFileKind kind, int parts) {
    return new LogFile(
        object.path(),
        Long.parseLong(m.group(1)),
        kind,
        parts,
        object.sizeBytes(),
        object.modificationTimeMillis());
  }

  /** The last path segment. */
  public String name() {
    return path.substring(path.lastIndexOf('/') + 1);
  }

  /** Whether this is a checkpoint file with content (an empty one is no checkpoint). */
  boolean isCheckpoint() {
    return kind == LogFileKind.CHECKPOINT && sizeBytes > 0;
  }

  /** This file with another modification time (the monotonic adjustment). */
  LogFile at(long millis) {
    return new LogFile(path, version, kind, parts, sizeBytes, millis);
  }
}
