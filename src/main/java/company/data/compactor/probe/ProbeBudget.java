package company.data.compactor.probe;

/**
 * How long the whole probe (the measurement before compaction and the one after, warm-ups included)
 * may take: {@code pct} percent of an estimate of the run, and at least {@code minMs}.
 *
 * <p>The estimate is taken when the first warm-up pass has finished: the time the run took until
 * the probe started, plus the time to read the bytes the compaction plan rewrites at the rate the
 * warm-up pass read the sample. Compaction reads every planned byte at least once through the same
 * storage (and then writes, verifies and commits), so the estimate is a lower bound of the run and
 * the probe stays within {@code pct} percent of the real run, unless the floor applies. When
 * nothing is planned the estimate is the time so far, and the floor usually decides.
 *
 * <p>The measurement before compaction may use half the budget; the one after gets what is left.
 * Each measurement's timed passes run while the next one (expected to take as long as the slowest
 * pass so far) still fits in its share; at least one timed pass must fit, else the measurement is
 * skipped with the reason.
 *
 * @param pct percent of the estimated run, > 0 and <= 100
 * @param minMs the floor, >= 0
 */
public record ProbeBudget(double pct, long minMs) {

  /**
   * The whole probe's budget in milliseconds. Pure.
   *
   * @param elapsedMs the run's time until the probe started
   * @param plannedBytes bytes the compaction plan rewrites (0 when nothing is planned)
   * @param warmUpBytes bytes the warm-up pass read
   * @param warmUpMs how long it took
   */
  public long totalMs(long elapsedMs, long plannedBytes, long warmUpBytes, double warmUpMs) {
    return Math.max(
        minMs,
        Math.round(pct / 100.0 * estimatedRunMs(elapsedMs, plannedBytes, warmUpBytes, warmUpMs)));
  }

  /** The estimate of the run described above, in milliseconds. */
  public static double estimatedRunMs(
      long elapsedMs, long plannedBytes, long warmUpBytes, double warmUpMs) {
    double rewriteMs =
        plannedBytes <= 0 || warmUpBytes <= 0 ? 0 : plannedBytes * (warmUpMs / warmUpBytes);
    return Math.max(0, elapsedMs) + rewriteMs;
  }

  /** The share of {@code totalMs} the measurement before compaction may use. */
  public static long beforeShareMs(long totalMs) {
    return totalMs / 2;
  }
}
