package company.data.compactor.report;

import java.util.List;

/**
 * The read-latency probe's part of the report (blueprint names, unwrapped to the top level).
 *
 * @param readLatencyPreMs median read time before compaction
 * @param readLatencyPostMs median read time after it; null when nothing was rewritten
 * @param latencySpeedupPct (pre - post) / pre * 100; null without a post measurement
 * @param latencyRegressionDetected whether the pre-compaction read exceeds {@code latency_sla_ms}
 * @param latencySlaMetAfter whether the post-compaction read is within the SLA; null without one
 * @param latencyProbeMethod how the latency was measured
 * @param latencyProbePartitions the partitions read (the same both times)
 * @param latencyProbeFilesPre files read before
 * @param latencyProbeFilesPost files read after; null without a post measurement
 * @param latencyProbeBytesPre bytes read before
 * @param latencyProbeBytesPost bytes read after; null without a post measurement
 * @param latencyProbeResultPre the query's answer before
 * @param latencyProbeResultPost the query's answer after (equal unless another writer changed the
 *     partitions meanwhile; the sample after compaction holds as many bytes as before, from the
 *     files that now hold the same partitions' rows, so it equals only when whole partitions fit)
 * @param latencyProbeRead how the sample was read: {@code in_place} (local storage) or {@code
 *     download} (fetched concurrently into scratch)
 * @param latencyProbeConcurrency requests in flight at once when downloading
 * @param latencyProbeMaxFiles the sample's cap on files per pass
 * @param latencyProbeMaxBytes the sample's cap on bytes per pass
 * @param latencyProbeRunsPre timed passes made before (after one warm-up pass)
 * @param latencyProbeRunsPost timed passes made after; null without a post measurement
 * @param latencyProbeBudgetMs the whole probe's time budget (both measurements, warm-ups included)
 * @param latencyProbeUsedMs what both measurements took, warm-ups included
 * @param latencyProbeDownloadedBytes bytes both measurements fetched into scratch, over every pass
 *     (0 when read in place)
 * @param latencyProbePostSkipped why the measurement after compaction was skipped (sample, scratch
 *     or budget); null when it ran or there was nothing to measure again
 */
public record LatencyReport(
    double readLatencyPreMs,
    Double readLatencyPostMs,
    Double latencySpeedupPct,
    boolean latencyRegressionDetected,
    Boolean latencySlaMetAfter,
    String latencyProbeMethod,
    List<String> latencyProbePartitions,
    int latencyProbeFilesPre,
    Integer latencyProbeFilesPost,
    long latencyProbeBytesPre,
    Long latencyProbeBytesPost,
    String latencyProbeResultPre,
    String latencyProbeResultPost,
    String latencyProbeRead,
    int latencyProbeConcurrency,
    int latencyProbeMaxFiles,
    long latencyProbeMaxBytes,
    int latencyProbeRunsPre,
    Integer latencyProbeRunsPost,
    long latencyProbeBudgetMs,
    long latencyProbeUsedMs,
    long latencyProbeDownloadedBytes,
    String latencyProbePostSkipped) {}
