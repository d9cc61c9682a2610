package company.data.compactor.telemetry;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import company.data.compactor.report.CompactionPartitionReport;
import company.data.compactor.report.CompactionReport;
import company.data.compactor.report.MaintenanceReport;
import company.data.compactor.report.PartitionReport;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * CloudWatch Embedded Metric Format lines for a run's report: one line for the run and one per
 * compacted partition, each with the dimension {@code table} (the table URI). Printed to standard
 * output in Lambda, CloudWatch Logs turns them into metrics in the namespace {@value #NAMESPACE}
 * without any API call. The run line also carries its metrics without dimensions, so one alarm
 * covers every table ("no successful run in 48 h"). The partition is a property, not a dimension: a
 * thousand partitions must not become a thousand metric series.
 *
 * <p>Run metrics: {@code FilesBefore}, {@code FilesAfter}, {@code BytesBefore}, {@code BytesAfter},
 * {@code SmallFileRatioPct}, {@code RewriteMBps}, {@code DurationMs}, {@code Conflicts}, {@code
 * Failures}, {@code VacuumDeleted}, {@code RunSucceeded} (1 for a complete run), {@code RunPartial}
 * (1 when some partition did not commit). Partition metrics: {@code PartitionFilesBefore}, {@code
 * PartitionFilesAfter}, {@code PartitionBytesBefore}, {@code PartitionBytesAfter}, {@code
 * PartitionConflicts}, {@code PartitionFailures}.
 */
public final class EmfMetrics {

  /** The CloudWatch namespace of every metric. */
  public static final String NAMESPACE = "DeltaCompactor";

  /** The one dimension. */
  public static final String TABLE_DIMENSION = "table";

  private static final ObjectMapper JSON = new ObjectMapper();

  private EmfMetrics() {}

  /** The EMF lines of {@code report}, the run's first; {@code now} stamps them. */
  public static List<String> lines(MaintenanceReport report, Instant now) {
    List<String> lines = new java.util.ArrayList<>();
    lines.add(line(report.tableUri(), now, runMetrics(report), runProperties(report), true));
    CompactionReport compaction = report.compaction();
    if (compaction != null) {
      Map<String, PartitionReport> before = new LinkedHashMap<>();
      for (PartitionReport p : report.partitions()) {
        before.put(p.partition(), p);
      }
      for (CompactionPartitionReport p : compaction.compactionPartitions()) {
        PartitionReport health = before.get(p.partition());
        int filesBefore = health == null ? 0 : health.fileCount();
        long bytesBefore = health == null ? 0 : health.totalBytes();
        Map<String, Metric> metrics = new LinkedHashMap<>();
        metrics.put("PartitionFilesBefore", Metric.count(filesBefore));
        metrics.put(
            "PartitionFilesAfter", Metric.count(filesBefore - p.filesRemoved() + p.filesAdded()));
        metrics.put("PartitionBytesBefore", Metric.bytes(bytesBefore));
        metrics.put(
            "PartitionBytesAfter", Metric.bytes(bytesBefore - p.bytesRemoved() + p.bytesAdded()));
        metrics.put("PartitionConflicts", Metric.count(p.status().equals("conflicted") ? 1 : 0));
        metrics.put("PartitionFailures", Metric.count(isFailure(p.status()) ? 1 : 0));
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("execution_id", report.executionId());
        properties.put("partition", p.partition());
        properties.put("status", p.status());
        lines.add(line(report.tableUri(), now, metrics, properties, false));
      }
    }
    return lines;
  }

  private record Metric(double value, String unit) {
    static Metric count(double value) {
      return new Metric(value, "Count");
    }

    static Metric bytes(double value) {
      return new Metric(value, "Bytes");
    }
  }

  private static Map<String, Metric> runMetrics(MaintenanceReport report) {
    CompactionReport c = report.compaction();
    long bytesBefore = report.partitions().stream().mapToLong(PartitionReport::totalBytes).sum();
    int conflicts = 0;
    int failures = 0;
    if (c != null) {
      for (CompactionPartitionReport p : c.compactionPartitions()) {
        conflicts += p.status().equals("conflicted") ? 1 : 0;
        failures += isFailure(p.status()) ? 1 : 0;
      }
    }
    boolean partial =
        failures + conflicts > 0
            || (report.execution() != null && "partial".equals(report.execution().runOutcome()));
    Map<String, Metric> metrics = new LinkedHashMap<>();
    metrics.put("FilesBefore", Metric.count(report.totalFiles()));
    metrics.put("FilesAfter", Metric.count(c == null ? report.totalFiles() : c.filesAfter()));
    metrics.put("BytesBefore", Metric.bytes(bytesBefore));
    metrics.put(
        "BytesAfter",
        Metric.bytes(
            c == null ? bytesBefore : bytesBefore - c.bytesCompacted() + c.bytesWritten()));
    metrics.put("SmallFileRatioPct", new Metric(report.smallFileRatioPct(), "Percent"));
    metrics.put(
        "RewriteMBps", new Metric(c == null ? 0 : c.compactionMbPerSec(), "Megabytes/Second"));
    metrics.put("DurationMs", new Metric(report.durationMs(), "Milliseconds"));
    metrics.put("Conflicts", Metric.count(conflicts));
    metrics.put("Failures", Metric.count(failures));
    metrics.put(
        "VacuumDeleted",
        Metric.count(report.vacuum() == null ? 0 : report.vacuum().deletedFilesCount()));
    metrics.put("RunSucceeded", Metric.count(partial ? 0 : 1));
    metrics.put("RunPartial", Metric.count(partial ? 1 : 0));
    return metrics;
  }

  private static Map<String, Object> runProperties(MaintenanceReport report) {
    Map<String, Object> properties = new LinkedHashMap<>();
    properties.put("execution_id", report.executionId());
    properties.put("table_version", report.tableVersion());
    if (report.execution() != null) {
      properties.put("execution_mode", report.execution().executionMode());
      if (report.execution().runOutcome() != null) {
        properties.put("run_outcome", report.execution().runOutcome());
      }
    }
    return properties;
  }

  /** Statuses of a partition that did not commit for a reason other than a concurrent writer. */
  private static boolean isFailure(String status) {
    return status.equals("failed")
        || status.equals("verification_failed")
        || status.equals("fenced");
  }

  private static String line(
      String table,
      Instant now,
      Map<String, Metric> metrics,
      Map<String, Object> properties,
      boolean alsoWithoutDimensions) {
    ObjectNode root = JSON.createObjectNode();
    ObjectNode aws = root.putObject("_aws");
    aws.put("Timestamp", now.toEpochMilli());
    ObjectNode directive = aws.putArray("CloudWatchMetrics").addObject();
    directive.put("Namespace", NAMESPACE);
    ArrayNode dimensions = directive.putArray("Dimensions");
    dimensions.addArray().add(TABLE_DIMENSION);
    if (alsoWithoutDimensions) {
      dimensions.addArray();
    }
    ArrayNode definitions = directive.putArray("Metrics");
    root.put(TABLE_DIMENSION, table);
    properties.forEach((k, v) -> root.set(k, JSON.valueToTree(v)));
    metrics.forEach(
        (name, metric) -> {
          definitions.addObject().put("Name", name).put("Unit", metric.unit());
          root.put(name, metric.value());
        });
    try {
      return JSON.writeValueAsString(root);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("plain values must serialise", e);
    }
  }
}
