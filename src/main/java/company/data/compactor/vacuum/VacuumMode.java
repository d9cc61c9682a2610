package company.data.compactor.vacuum;

/** What vacuum may delete. */
public enum VacuumMode {
  /** Files whose tombstone is older than the retention cutoff. */
  LITE,
  /** LITE plus untracked files (orphans of failed or aborted writes) older than the cutoff. */
  FULL
}
