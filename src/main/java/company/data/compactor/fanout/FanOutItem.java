package company.data.compactor.fanout;

import java.util.List;

/**
 * One item of a fan-out run: one partition's bins, compacted and committed by one worker
 * invocation. The worker finds its bins again by re-planning the plan's snapshot (the planner is a
 * pure function of the files and options) and checks they are these files; partitions are matched
 * by their typed values there, never by this label.
 *
 * @param index the item's position in the plan (the Distributed Map's item)
 * @param partition the partition's label, for logs and metrics only
 * @param inputs the input files' paths exactly as the log records them
 * @param inputBytes their total size
 */
public record FanOutItem(int index, String partition, List<String> inputs, long inputBytes) {

  public FanOutItem {
    inputs = List.copyOf(inputs);
  }
}
