package company.data.compactor.report;

import java.util.List;

/**
 * The log hygiene part of the report, under {@code log_cleanup}: the checkpoint and the expired log
 * files.
 *
 * @param dryRun whether nothing was written or deleted (follows {@code vacuum_dry_run})
 * @param cleanupEnabled {@code delta.enableExpiredLogCleanup}
 * @param logRetentionHours {@code delta.logRetentionDuration} in hours (default 720); null when it
 *     does not parse
 * @param logRetentionSource {@code default} or {@code table_property}
 * @param cutoff log files last modified at or before this instant have expired (ISO-8601 UTC); null
 *     when the retention does not parse
 * @param checkpointInterval {@code delta.checkpointInterval} (default 10); null when it does not
 *     parse
 * @param commitsSinceCheckpoint commits after the newest checkpoint before this step
 * @param checkpointStatus {@code not_due}, {@code would_write}, {@code written}, {@code
 *     already_exists}, {@code failed} or {@code skipped}
 * @param checkpointVersion the version checkpointed (or that would be); null when none was due
 * @param checkpointDetail why the checkpoint failed or was skipped
 * @param logFilesListed commit, checkpoint and checksum files in the log
 * @param expiredFilesCount log files that expired (deleted unless a dry run)
 * @param expiredSample up to 20 of their names
 * @param deletedFilesCount log files deleted (0 in a dry run)
 * @param latestVersion the newest commit
 * @param oldestVersionBefore the oldest commit in the log before this step
 * @param oldestVersionAfter the oldest commit left after it (in a dry run: that would be left);
 *     time travel works from it to the latest
 * @param skippedReason why nothing may be deleted at all, null when the rule ran
 * @param warnings things the operator should know
 */
public record LogCleanupReport(
    boolean dryRun,
    boolean cleanupEnabled,
    Long logRetentionHours,
    String logRetentionSource,
    String cutoff,
    Integer checkpointInterval,
    long commitsSinceCheckpoint,
    String checkpointStatus,
    Long checkpointVersion,
    String checkpointDetail,
    int logFilesListed,
    int expiredFilesCount,
    List<String> expiredSample,
    int deletedFilesCount,
    long latestVersion,
    long oldestVersionBefore,
    long oldestVersionAfter,
    String skippedReason,
    List<String> warnings) {

  public LogCleanupReport {
    expiredSample = List.copyOf(expiredSample);
    warnings = List.copyOf(warnings);
  }
}
