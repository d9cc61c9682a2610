package company.data.compactor.report;

/**
 * Where the run's compaction executed (unwrapped to the report's top level): {@code execution_mode}
 * {@code in_process} or {@code state_machine}, why, and for a state-machine run how its items ended
 * and whether the run is {@code complete} or {@code partial}.
 *
 * @param executionMode {@code in_process} or {@code state_machine}
 * @param executionReason the budget decision in words
 * @param runOutcome {@code complete} (every item's partition is in the log) or {@code partial}
 *     (some item failed, conflicted or was fenced; the others stay committed); null in process
 * @param fanOutItems items of the state-machine run; null in process
 * @param fanOutItemsCommitted items whose partition is in the log; null in process
 * @param fanOutItemsFailed items that did not commit; null in process
 */
public record ExecutionReport(
    String executionMode,
    String executionReason,
    String runOutcome,
    Integer fanOutItems,
    Integer fanOutItemsCommitted,
    Integer fanOutItemsFailed) {

  /** A run compacted in the invocation that planned it. */
  public static ExecutionReport inProcess(String reason) {
    return new ExecutionReport("in_process", reason, null, null, null, null);
  }

  /** A state-machine run of {@code items} items, {@code committed} of them in the log. */
  public static ExecutionReport stateMachine(String reason, int items, int committed) {
    return new ExecutionReport(
        "state_machine",
        reason,
        committed == items ? "complete" : "partial",
        items,
        committed,
        items - committed);
  }
}
