package company.data.compactor.delta;

/**
 * A file the log stopped referencing: the data file of a {@code remove} action, the deletion-vector
 * file its descriptor names (storage types {@code u} and {@code p}), or the change-data file of a
 * {@code cdc} action once the next version is committed.
 *
 * @param path absolute path of the file, unescaped (the form storage listings use)
 * @param removedAtMillis when it stopped being referenced: for a remove (and its deletion-vector
 *     file) the later of the action's {@code deletionTimestamp} and its commit's timestamp, so a
 *     writer's skewed clock cannot make it look older; for a change-data file the timestamp of the
 *     commit after its own ({@link Long#MAX_VALUE} while its version is the latest)
 * @param version the commit that removed it, or wrote the change-data file (-1 when only a
 *     checkpoint carried it)
 */
public record Tombstone(String path, long removedAtMillis, long version) {}
