package company.data.compactor.report;

/** How a run left its table, in the words the HTML page and the Slack summary both use. */
public final class RunState {

  private RunState() {}

  /** Whether the run committed a rewrite. */
  public static boolean compacted(MaintenanceReport report) {
    return report.compaction() != null && report.compaction().compacted();
  }

  /** How the detail of a {@code vacuum} step not run because the run was fenced begins. */
  public static final String VACUUM_FENCED = "not run, the run was fenced: ";

  /**
   * How the skipped reason of log cleanup that deleted nothing because the run was fenced begins.
   */
  public static final String LOG_CLEANUP_FENCED = "nothing deleted, the run was fenced: ";

  /**
   * Whether the run lost its table's lease to another run and so stopped before a commit or a
   * delete: a partition {@code fenced}, vacuum not run, or log cleanup deleting nothing for that
   * reason.
   */
  public static boolean fenced(MaintenanceReport report) {
    return (report.compaction() != null && report.compaction().fenced())
        || report.steps().stream()
            .anyMatch(
                s ->
                    (s.step().equals("vacuum") && s.detail().startsWith(VACUUM_FENCED))
                        || (s.step().equals("cleanup-log")
                            && s.status().equals("failed")
                            && s.detail().contains(LOG_CLEANUP_FENCED)));
  }

  /**
   * {@code compacted}, {@code nothing compacted} (the gate passed, nothing to merge) or {@code
   * healthy}.
   */
  public static String of(MaintenanceReport report) {
    return compacted(report)
        ? "compacted"
        : report.compactionRequired() ? "nothing compacted" : "healthy";
  }
}
