package company.data.compactor.fanout;

import java.util.Locale;

/** Where a run's compaction executes; the report's {@code execution_mode}. */
public enum ExecutionMode {
  /** In the invocation that planned it (the pipeline's {@code run}). */
  IN_PROCESS,
  /**
   * Across a Step Functions execution: Plan, a Distributed Map of partition items, Finalize (see
   * {@code infra/template.yaml}).
   */
  STATE_MACHINE;

  /** The report's word for it: {@code in_process} or {@code state_machine}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
