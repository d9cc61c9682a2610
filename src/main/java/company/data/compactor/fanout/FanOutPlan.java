package company.data.compactor.fanout;

import java.util.List;
import java.util.Map;

/**
 * A fan-out run's plan, stored under its run id ({@link PlanStore}) by the Plan task and read by
 * every worker and the Finalize task.
 *
 * @param runId the run (the report's {@code execution_id}, the owner of the table's lease)
 * @param tableUri the admitted table
 * @param inputs the admitted request inputs, admitted again by each task
 * @param readVersion the table version planned from; every item loads it and commits on top of it
 *     (rebasing over the other items' commits)
 * @param createdAt when the plan was made (ISO-8601 UTC): the run's start
 * @param items one per partition with bins, in plan order
 */
public record FanOutPlan(
    String runId,
    String tableUri,
    Map<String, Object> inputs,
    long readVersion,
    String createdAt,
    List<FanOutItem> items) {

  public FanOutPlan {
    inputs = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(inputs));
    items = List.copyOf(items);
  }

  /** Input bytes of every item. */
  public long bytesToRewrite() {
    return items.stream().mapToLong(FanOutItem::inputBytes).sum();
  }
}
