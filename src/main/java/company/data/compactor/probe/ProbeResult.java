package company.data.compactor.probe;

import java.util.List;

/**
 * One latency measurement of the read a representative reader makes.
 *
 * @param medianMs median wall time over the runs
 * @param runsMs each run's wall time
 * @param files files read per run
 * @param bytes bytes read per run
 * @param partitions labels of the partitions read
 * @param result the query's result (first row, as text), so pre and post can be compared
 */
public record ProbeResult(
    double medianMs,
    List<Double> runsMs,
    int files,
    long bytes,
    List<String> partitions,
    String result) {

  public ProbeResult {
    runsMs = List.copyOf(runsMs);
    partitions = List.copyOf(partitions);
  }
}
