package company.data.compactor.vacuum;

/**
 * A file vacuum may delete.
 *
 * @param path full storage path
 * @param sizeBytes its size
 * @param reason {@code expired_tombstone} or {@code untracked}
 */
public record VacuumCandidate(String path, long sizeBytes, String reason) {}
