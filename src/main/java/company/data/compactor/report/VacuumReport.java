package company.data.compactor.report;

import java.util.List;

/**
 * The vacuum part of the report (blueprint names, unwrapped to the top level).
 *
 * @param vacuumRetentionHours the effective retention applied
 * @param vacuumRetentionSource where it came from: {@code floor}, {@code request} or {@code
 *     table_property}
 * @param vacuumDryRun whether deletion was skipped
 * @param vacuumMode {@code lite} or {@code full}
 * @param vacuumCutoff files removed or written before this instant were eligible
 * @param candidateFilesCount files vacuum found to delete
 * @param candidateBytes their bytes
 * @param candidateSample up to 20 of their paths
 * @param deletedFilesCount files deleted (0 in a dry run)
 * @param keptYoungFiles eligible by the log but younger than the cutoff by object time
 * @param keptUnexpiredTombstones removed files still on storage whose tombstones are younger than
 *     the cutoff (deleted by a later vacuum)
 * @param skippedHiddenFiles files skipped by the hidden-path rule
 * @param vacuumStartVersion the VACUUM START commit, null in a dry run
 * @param vacuumEndVersion the VACUUM END commit, null in a dry run
 * @param vacuumWarnings things the operator should know
 * @param vacuumSkippedReason why vacuum did not run, null when it did
 */
public record VacuumReport(
    long vacuumRetentionHours,
    String vacuumRetentionSource,
    boolean vacuumDryRun,
    String vacuumMode,
    String vacuumCutoff,
    int candidateFilesCount,
    long candidateBytes,
    List<String> candidateSample,
    int deletedFilesCount,
    int keptYoungFiles,
    int keptUnexpiredTombstones,
    int skippedHiddenFiles,
    Long vacuumStartVersion,
    Long vacuumEndVersion,
    List<String> vacuumWarnings,
    String vacuumSkippedReason) {}
