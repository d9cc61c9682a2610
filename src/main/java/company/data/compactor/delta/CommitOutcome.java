package company.data.compactor.delta;

import java.util.List;

/** How a rewrite commit ended, when it ended cleanly. */
public sealed interface CommitOutcome {

  /**
   * The rewrite is in the log.
   *
   * @param version the committed version
   * @param hookFailures post-commit hooks (checkpoint, checksum) that failed after the commit
   *     succeeded; logged, not fatal
   */
  record Committed(long version, List<String> hookFailures) implements CommitOutcome {}

  /**
   * A concurrent commit removed an input or changed the table's metadata or protocol; nothing was
   * committed, and the new files may be deleted: the committer read the log after the read version
   * and it holds no commit of this transaction and no commit adding one of the new files.
   *
   * @param reason what the winning commit did
   */
  record Conflicted(String reason) implements CommitOutcome {}
}
