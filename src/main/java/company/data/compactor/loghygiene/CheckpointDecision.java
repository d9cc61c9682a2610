package company.data.compactor.loghygiene;

import java.util.OptionalInt;

/**
 * Whether a checkpoint is due: the log holds at least {@code delta.checkpointInterval} commits
 * after its newest complete checkpoint (all of them, from version 0, when it has none).
 *
 * @param interval {@code delta.checkpointInterval}; empty when the property does not parse (then no
 *     checkpoint is written)
 * @param newestCheckpointVersion the newest complete checkpoint, -1 without one
 * @param latestVersion the newest commit
 * @param commitsSinceCheckpoint commits after the newest checkpoint
 * @param due whether to write a checkpoint at {@code latestVersion}
 */
public record CheckpointDecision(
    OptionalInt interval,
    long newestCheckpointVersion,
    long latestVersion,
    long commitsSinceCheckpoint,
    boolean due) {

  /** The decision for {@code state} under {@code settings}. Pure. */
  public static CheckpointDecision of(LogState state, LogSettings settings) {
    long newest = state.newestCompleteCheckpointVersion();
    long latest = state.latestCommitVersion();
    long since = Math.max(0, latest - newest);
    boolean due =
        latest >= 0
            && settings.checkpointInterval().isPresent()
            && since >= settings.checkpointInterval().getAsInt();
    return new CheckpointDecision(settings.checkpointInterval(), newest, latest, since, due);
  }
}
