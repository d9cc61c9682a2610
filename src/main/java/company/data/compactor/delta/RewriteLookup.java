package company.data.compactor.delta;

import company.data.compactor.model.TableLocation;
import java.util.Optional;
import java.util.Set;

/**
 * Finds a rewrite in the table's log: the commit after a version that removed a given set of files
 * without changing data. This is how a retried fan-out item proves its partition already committed
 * (the log is the evidence, not a flag the item wrote somewhere).
 */
public interface RewriteLookup {

  /**
   * A rewrite found in the log.
   *
   * @param version the commit's version
   * @param filesAdded the files it added
   * @param bytesAdded their size
   */
  record Rewrite(long version, int filesAdded, long bytesAdded) {}

  /**
   * The first commit after {@code afterVersion} whose {@code remove} actions with {@code
   * dataChange=false} include every path of {@code removedLogPaths} (paths exactly as the log's
   * {@code add.path} records them), with what it added; empty when no such commit is in the log.
   *
   * @throws company.data.compactor.error.CompactorException OPERATION_FAILED when the log cannot be
   *     listed or a commit cannot be read or parsed
   */
  Optional<Rewrite> committedRewrite(
      TableLocation location, long afterVersion, Set<String> removedLogPaths);
}
