package company.data.compactor.delta;

/**
 * Commits rewrites. Concurrent blind appends never conflict with a rewrite (it is rebased onto
 * them); a rewrite whose inputs a winning commit removed, or whose table's metadata or protocol
 * changed, is {@link CommitOutcome.Conflicted} and is not retried.
 */
public interface RewriteCommitter {

  /**
   * Commits {@code commit}.
   *
   * @return {@link CommitOutcome.Committed} or {@link CommitOutcome.Conflicted}
   * @throws company.data.compactor.error.CompactorException OPERATION_FAILED when the outcome is
   *     unknown (e.g. storage failed while writing the commit file): the new files must then be
   *     kept, since the commit may have landed
   */
  CommitOutcome commitRewrite(RewriteCommit commit);
}
