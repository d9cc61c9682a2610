package company.data.compactor.probe;

/**
 * How long the whole probe (the measurement before compaction and the one after, warm-ups included)
 * may take: {@code pct} percent of an estimate of the run, and at least {@code minMs}.
 *
 * <p>The warm-up pass reads one round of the sample: its first {@code concurrency} files (a reader
 * fetches that many at once), so it stays short however large the sample is, and its rate sizes the
 * timed passes. The estimate is taken when the first warm-up pass has finished: the time the run
 * took until the probe started, plus what compaction costs at least: reading the bytes the plan
 * rewrites and writing half as many back (outputs are recompressed, rarely smaller than that) at
 * the rate the warm-up pass read the sample, and rewriting and verifying them on local scratch at
 * {@value #LOCAL_MB_PER_SEC} MB/s (DuckDB alone rewrote at 117-130 MB/s on the 2-core benchmark
 * machine, and verification reads both sides again). So the estimate stays below the real run and
 * the probe within {@code pct} percent of it, unless the floor applies. When nothing is planned the
 * estimate is the time so far, and the floor usually decides.
 *
 * <p>The measurement before compaction may use half the budget; the one after gets what is left.
 * Each measurement's timed passes run while the next one (expected to take as long as the slowest
 * pass so far) still fits in its share. When the warm-up's rate shows that the whole sample does
 * not fit what is left of the share ({@link #passMs}), the timed passes read the prefix of the
 * sample that does ({@link #bytesThatFit}); only when not even its first file fits is the
 * measurement skipped, with the reason.
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

  /** The local rewrite and verification rate the estimate counts, in MiB per second. */
  public static final int LOCAL_MB_PER_SEC = 250;

  /** The share of the planned bytes the estimate counts as written back. */
  static final double WRITTEN_SHARE = 0.5;

  /** The share of the time left that a reduced timed pass is sized to, for a margin. */
  static final double FIT_MARGIN = 0.8;

  /** The estimate of the run described above, in milliseconds. */
  public static double estimatedRunMs(
      long elapsedMs, long plannedBytes, long warmUpBytes, double warmUpMs) {
    if (plannedBytes <= 0) {
      return Math.max(0, elapsedMs);
    }
    double transferMs =
        warmUpBytes <= 0 ? 0 : plannedBytes * (1 + WRITTEN_SHARE) * (warmUpMs / warmUpBytes);
    double localMs = plannedBytes / (LOCAL_MB_PER_SEC * 1048576.0 / 1000.0);
    return Math.max(0, elapsedMs) + transferMs + localMs;
  }

  /**
   * How many bytes of a sample of {@code sampleBytes} one timed pass may read to fit, with a
   * margin, in the {@code roomMs} left of its share, at the rate the warm-up pass read the whole
   * sample in {@code warmUpMs}: all of them when the whole sample fits, else {@value #FIT_MARGIN}
   * of the room at that rate; 0 when no time is left. Pure.
   */
  public static long bytesThatFit(long sampleBytes, double warmUpMs, long roomMs) {
    if (sampleBytes <= 0 || roomMs <= 0) {
      return 0;
    }
    if (warmUpMs <= roomMs) {
      return sampleBytes;
    }
    return (long) Math.min(sampleBytes, FIT_MARGIN * roomMs * (sampleBytes / warmUpMs));
  }

  /**
   * What one pass over a sample of {@code sampleBytes} is expected to take, at the rate the warm-up
   * pass read its {@code warmUpBytes} (one round of the sample's first files) in {@code warmUpMs}.
   * Pure.
   */
  public static double passMs(long sampleBytes, long warmUpBytes, double warmUpMs) {
    if (warmUpBytes <= 0) {
      return warmUpMs;
    }
    return warmUpMs * Math.max(1.0, (double) sampleBytes / warmUpBytes);
  }

  /** The share of {@code totalMs} the measurement before compaction may use. */
  public static long beforeShareMs(long totalMs) {
    return totalMs / 2;
  }
}
