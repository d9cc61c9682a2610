package company.data.compactor.storage;

/**
 * A file (object) as storage reports it.
 *
 * @param path full path or URI, in the same form the storage was asked with
 * @param sizeBytes size in bytes
 * @param modificationTimeMillis last modification time, epoch milliseconds
 */
public record StoredObject(String path, long sizeBytes, long modificationTimeMillis) {

  /** The last path segment. */
  public String name() {
    return path.substring(path.lastIndexOf('/') + 1);
  }
}
