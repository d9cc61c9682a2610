package company.data.compactor.vacuum;

import java.time.Instant;
import java.util.List;

/**
 * What vacuum would delete, and why nothing else.
 *
 * @param mode lite or full
 * @param retention the effective retention and its source
 * @param cutoff files removed (and objects written) before this may go
 * @param candidates the files to delete
 * @param keptYoungObjects files eligible by the log but younger than the cutoff by object time
 * @param keptUnexpiredTombstones removed files whose tombstones are younger than the cutoff: the
 *     next vacuum after they expire deletes them
 * @param keptHidden files skipped by the hidden-path rule
 * @param warnings things the operator should know (e.g. time travel beyond the file retention)
 */
public record VacuumPlan(
    VacuumMode mode,
    Retention retention,
    Instant cutoff,
    List<VacuumCandidate> candidates,
    int keptYoungObjects,
    int keptUnexpiredTombstones,
    int keptHidden,
    List<String> warnings) {

  public VacuumPlan {
    candidates = List.copyOf(candidates);
    warnings = List.copyOf(warnings);
  }

  /** This plan without the candidates whose paths are in {@code kept}. */
  public VacuumPlan without(java.util.Set<String> kept) {
    return new VacuumPlan(
        mode,
        retention,
        cutoff,
        candidates.stream().filter(c -> !kept.contains(c.path())).toList(),
        keptYoungObjects,
        keptUnexpiredTombstones,
        keptHidden,
        warnings);
  }

  public long bytes() {
    return candidates.stream().mapToLong(VacuumCandidate::sizeBytes).sum();
  }
}
