package company.data.compactor.delta;

/**
 * A {@code remove} action found in the log.
 *
 * @param path absolute path of the removed file, unescaped (the form storage listings use)
 * @param removedAtMillis when it was removed: the later of the action's {@code deletionTimestamp}
 *     and its commit's timestamp, so a writer's skewed clock cannot make it look older
 * @param version the commit that removed it (-1 when only a checkpoint carried it)
 */
public record Tombstone(String path, long removedAtMillis, long version) {}
