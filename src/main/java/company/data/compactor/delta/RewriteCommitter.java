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
   * @return {@link CommitOutcome.Committed} (also when a write's response was lost but the log
   *     holds the commit), {@link CommitOutcome.Conflicted} (only once the log proves the commit
   *     did not land) or {@link CommitOutcome.Outpaced} (likewise proven absent, after other
   *     writers kept taking the next version; the caller may try again)
   * @throws company.data.compactor.error.CompactorException OPERATION_FAILED when the commit was
   *     not written or its outcome cannot be proven; the message says which, how to check, and
   *     which new files were kept (they must be: the commit may have landed)
   */
  CommitOutcome commitRewrite(RewriteCommit commit);
}
