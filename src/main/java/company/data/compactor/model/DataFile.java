package company.data.compactor.model;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One active data file of a snapshot, as the Delta log describes it.
 *
 * @param path absolute path or URI of the file, unescaped
 * @param logPath the path exactly as the log's {@code add.path} records it (usually relative to the
 *     table root and URI-encoded); removes must repeat it byte for byte
 * @param sizeBytes file size in bytes, as logged
 * @param partition the partition the file belongs to
 * @param numRecords row count from the file's stats, when the writer recorded them
 * @param modificationTimeMillis the logged modification time, epoch milliseconds
 * @param hasDeletionVector whether rows of the file are deleted by a deletion vector
 * @param statsJson the file's Delta stats as logged (a JSON string), null when there are none
 * @param zOrderedBy the columns the compactor Z-ordered this file by (its {@value #ZORDER_TAG}
 *     tag), empty when it did not write it clustered
 * @param deletionVector the file's deletion vector when the reader described it (present only when
 *     {@code hasDeletionVector}); its file must outlive the data file's reference
 */
public record DataFile(
    String path,
    String logPath,
    long sizeBytes,
    PartitionValues partition,
    OptionalLong numRecords,
    long modificationTimeMillis,
    boolean hasDeletionVector,
    String statsJson,
    List<String> zOrderedBy,
    Optional<DeletionVector> deletionVector) {

  /** The {@code add.tags} key recording the Z-order columns of a file the compactor wrote. */
  public static final String ZORDER_TAG = "delta-compactor.zOrderBy";

  /** A file without stats text and not Z-ordered by the compactor. */
  public DataFile(
      String path,
      String logPath,
      long sizeBytes,
      PartitionValues partition,
      OptionalLong numRecords,
      long modificationTimeMillis,
      boolean hasDeletionVector) {
    this(
        path,
        logPath,
        sizeBytes,
        partition,
        numRecords,
        modificationTimeMillis,
        hasDeletionVector,
        null,
        List.of());
  }

  /** A file whose deletion vector, if any, is not described. */
  public DataFile(
      String path,
      String logPath,
      long sizeBytes,
      PartitionValues partition,
      OptionalLong numRecords,
      long modificationTimeMillis,
      boolean hasDeletionVector,
      String statsJson,
      List<String> zOrderedBy) {
    this(
        path,
        logPath,
        sizeBytes,
        partition,
        numRecords,
        modificationTimeMillis,
        hasDeletionVector,
        statsJson,
        zOrderedBy,
        Optional.empty());
  }

  public DataFile {
    zOrderedBy = List.copyOf(zOrderedBy);
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(logPath, "logPath");
    Objects.requireNonNull(partition, "partition");
    Objects.requireNonNull(numRecords, "numRecords");
    Objects.requireNonNull(deletionVector, "deletionVector");
    if (deletionVector.isPresent() && !hasDeletionVector) {
      throw new IllegalArgumentException("a deletion vector on " + path + ", which has none");
    }
    if (sizeBytes < 0) {
      throw new IllegalArgumentException("negative size for " + path);
    }
  }

  /** Rows its deletion vector deletes, as logged: its cardinality, 0 without one. */
  public long deletedRows() {
    return deletionVector.map(DeletionVector::cardinality).orElse(0L);
  }

  /**
   * Rows readers see: the stats' {@code numRecords} less the deletion vector's cardinality (never
   * below zero); empty without stats, or when the file has a deletion vector that is not described.
   */
  public OptionalLong liveRecords() {
    if (numRecords.isEmpty() || (hasDeletionVector && deletionVector.isEmpty())) {
      return OptionalLong.empty();
    }
    long deleted = deletionVector.map(DeletionVector::cardinality).orElse(0L);
    return OptionalLong.of(Math.max(0, numRecords.getAsLong() - deleted));
  }
}
