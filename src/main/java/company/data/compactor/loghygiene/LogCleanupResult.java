package company.data.compactor.loghygiene;

/**
 * What log hygiene did.
 *
 * @param mode dry run or apply
 * @param checkpoint whether a checkpoint was due
 * @param checkpointStatus what became of it
 * @param checkpointDetail why it failed or was skipped (null otherwise)
 * @param listedFiles commit, checkpoint and checksum files in the log before this step
 * @param plan what cleanup found (after the checkpoint, when one was written)
 * @param deletedFiles log files deleted (0 in a dry run)
 * @param skippedOutsideRoot expired files not deleted because their real path is outside the table
 *     root (a linked {@code _delta_log})
 * @param fencedReason why nothing was deleted because the run lost its table's lease (null when it
 *     held it, or in a dry run)
 */
public record LogCleanupResult(
    LogCleanupMode mode,
    CheckpointDecision checkpoint,
    CheckpointStatus checkpointStatus,
    String checkpointDetail,
    int listedFiles,
    LogCleanupPlan plan,
    int deletedFiles,
    int skippedOutsideRoot,
    String fencedReason) {

  /** Whether the run lost its lease before deleting, so deleted nothing. */
  public boolean fenced() {
    return fencedReason != null;
  }
}
