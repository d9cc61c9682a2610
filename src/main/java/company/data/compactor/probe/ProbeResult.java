package company.data.compactor.probe;

import java.util.List;

/**
 * One latency measurement of the read a representative reader makes, or why it was skipped.
 *
 * @param outcome whether it was measured or skipped
 * @param skipReason why it was skipped (which limit, the figures, the setting to change); null when
 *     measured
 * @param medianMs median wall time over the timed passes (0 when skipped)
 * @param runsMs each timed pass's wall time
 * @param files files read per pass
 * @param bytes bytes read per pass
 * @param partitions labels of the partitions read
 * @param result the query's result (first row, as text), so pre and post can be compared
 * @param readMethod how the files were read
 * @param budgetMs the whole probe's time budget (both measurements; see {@link ProbeBudget}); 0
 *     when skipped before it could be set
 * @param usedMs this measurement's wall time, warm-up included
 * @param downloadedBytes bytes this measurement fetched into scratch over all its passes (0 when
 *     read in place)
 */
public record ProbeResult(
    Outcome outcome,
    String skipReason,
    double medianMs,
    List<Double> runsMs,
    int files,
    long bytes,
    List<String> partitions,
    String result,
    ReadMethod readMethod,
    long budgetMs,
    long usedMs,
    long downloadedBytes) {

  /** Whether the probe measured. */
  public enum Outcome {
    MEASURED,
    SKIPPED
  }

  public ProbeResult {
    runsMs = List.copyOf(runsMs);
    partitions = List.copyOf(partitions);
  }

  /** A measurement skipped for {@code reason}, after {@code usedMs} and {@code downloadedBytes}. */
  public static ProbeResult skipped(
      String reason,
      ReadMethod method,
      ProbeSample sample,
      List<String> partitions,
      long budgetMs,
      long usedMs,
      long downloadedBytes) {
    return new ProbeResult(
        Outcome.SKIPPED,
        reason,
        0,
        List.of(),
        sample.files().size(),
        sample.bytes(),
        partitions,
        "",
        method,
        budgetMs,
        usedMs,
        downloadedBytes);
  }

  /** Whether it was measured. */
  public boolean measured() {
    return outcome == Outcome.MEASURED;
  }
}
