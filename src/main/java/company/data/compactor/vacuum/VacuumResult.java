package company.data.compactor.vacuum;

/**
 * What vacuum did.
 *
 * @param plan what it found
 * @param dryRun whether deletion was skipped
 * @param deletedFiles files deleted (0 in a dry run)
 * @param startVersion the {@code VACUUM START} commit, null in a dry run
 * @param endVersion the {@code VACUUM END} commit, null in a dry run
 * @param skippedReason why vacuum did not run at all (null when it ran)
 */
public record VacuumResult(
    VacuumPlan plan,
    boolean dryRun,
    int deletedFiles,
    Long startVersion,
    Long endVersion,
    String skippedReason) {}
