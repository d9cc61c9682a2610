package company.data.compactor.model;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * One active data file of a snapshot, as the Delta log describes it.
 *
 * @param path absolute path or URI of the file, unescaped
 * @param logPath the path exactly as the log's {@code add.path} records it (usually relative to
 *     the table root and URI-encoded); removes must repeat it byte for byte
 * @param sizeBytes file size in bytes, as logged
 * @param partition the partition the file belongs to
 * @param numRecords row count from the file's stats, when the writer recorded them
 * @param modificationTimeMillis the logged modification time, epoch milliseconds
 * @param hasDeletionVector whether rows of the file are deleted by a deletion vector
 */
public record DataFile(
    String path,
    String logPath,
    long sizeBytes,
    PartitionValues partition,
    OptionalLong numRecords,
    long modificationTimeMillis,
    boolean hasDeletionVector) {

  public DataFile {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(logPath, "logPath");
    Objects.requireNonNull(partition, "partition");
    Objects.requireNonNull(numRecords, "numRecords");
    if (sizeBytes < 0) {
      throw new IllegalArgumentException("negative size for " + path);
    }
  }
}
