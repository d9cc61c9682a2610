package company.data.compactor.report;

/** How a run left its table, in the words the HTML page and the Slack summary both use. */
public final class RunState {

  private RunState() {}

  /** Whether the run committed a rewrite. */
  public static boolean compacted(MaintenanceReport report) {
    return report.compaction() != null && report.compaction().compacted();
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
