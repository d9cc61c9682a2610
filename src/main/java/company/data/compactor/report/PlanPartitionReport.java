package company.data.compactor.report;

/**
 * The planner's decision for one partition.
 *
 * @param partition label
 * @param partitionValues the partition's values (column to raw value, NULL as null): its identity
 * @param files active files
 * @param smallFiles candidates among them
 * @param decision {@code compact}, {@code filtered_out}, {@code below_gate} or {@code
 *     nothing_to_merge}
 * @param bins bins planned (now and deferred)
 */
public record PlanPartitionReport(
    String partition,
    java.util.Map<String, String> partitionValues,
    int files,
    int smallFiles,
    String decision,
    int bins) {}
