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
 *     partitions meanwhile)
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
    String latencyProbeResultPost) {}
