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

  /**
   * Other writers kept winning the race for the next version while the commit rebased over them (no
   * semantic conflict: they only appended); the log proves this commit absent and no commit adds
   * its new files, so it may be tried again from the same read version, with the same files.
   *
   * @param reason what the committer saw
   */
  record Outpaced(String reason) implements CommitOutcome {}
}
