package company.data.compactor.loghygiene;

import java.time.Instant;
import java.util.List;

/**
 * What log cleanup would delete, and why nothing else.
 *
 * @param settings the table's log properties as read
 * @param cutoff files last modified at or before this instant have expired ({@code now -
 *     delta.logRetentionDuration}, truncated to midnight UTC as Delta does); null when the
 *     retention does not parse
 * @param expired the files to delete, in log order
 * @param oldestVersionBefore the oldest commit in the log
 * @param oldestVersionAfter the oldest commit left once {@code expired} is gone: every version from
 *     it on can still be read
 * @param skippedReason why nothing may be deleted at all (null when the rule ran)
 * @param warnings things the operator should know
 */
public record LogCleanupPlan(
    LogSettings settings,
    Instant cutoff,
    List<LogFile> expired,
    long oldestVersionBefore,
    long oldestVersionAfter,
    String skippedReason,
    List<String> warnings) {

  public LogCleanupPlan {
    expired = List.copyOf(expired);
    warnings = List.copyOf(warnings);
  }
}
