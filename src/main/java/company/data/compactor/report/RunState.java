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
   * Whether the run lost its table's lease to another run and so stopped before a commit: a
   * partition {@code fenced}, or vacuum not run for that reason.
   */
  public static boolean fenced(MaintenanceReport report) {
    return (report.compaction() != null && report.compaction().fenced())
        || report.steps().stream()
            .anyMatch(s -> s.step().equals("vacuum") && s.detail().startsWith(VACUUM_FENCED));
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
