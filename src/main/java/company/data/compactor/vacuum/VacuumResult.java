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
 * @param fencedReason why vacuum stopped because the run lost its table's lease: no delete and no
 *     commit after that point ({@code endVersion} null); null when it held the lease throughout
 */
public record VacuumResult(
    VacuumPlan plan,
    boolean dryRun,
    int deletedFiles,
    Long startVersion,
    Long endVersion,
    String skippedReason,
    String fencedReason) {

  /** Whether the run lost its lease before vacuum finished, so it stopped deleting. */
  public boolean fenced() {
    return fencedReason != null;
  }
}
