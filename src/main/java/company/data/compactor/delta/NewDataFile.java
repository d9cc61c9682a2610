package company.data.compactor.delta;

import company.data.compactor.model.PartitionValues;

/**
 * A data file written by the compactor, uploaded but not yet in the log.
 *
 * @param path full storage path of the file
 * @param logPath the path to record in {@code add.path}: relative to the table root, URI-encoded
 * @param sizeBytes its size
 * @param partition its partition values, exactly those of the files it replaces
 * @param statsJson Delta stats ({@code numRecords}, {@code minValues}, {@code maxValues}, {@code
 *     nullCount}) as a JSON string
 * @param modificationTimeMillis its modification time
 * @param tags {@code add.tags} to record, e.g. the Z-order columns ({@link
 *     company.data.compactor.model.DataFile#ZORDER_TAG})
 */
public record NewDataFile(
    String path,
    String logPath,
    long sizeBytes,
    PartitionValues partition,
    String statsJson,
    long modificationTimeMillis,
    java.util.Map<String, String> tags) {

  public NewDataFile {
    tags = java.util.Map.copyOf(tags);
  }
}
