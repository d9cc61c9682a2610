package company.data.compactor.telemetry;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import company.data.compactor.report.CompactionReport;
import company.data.compactor.report.LatencyReport;
import company.data.compactor.report.MaintenanceReport;
import company.data.compactor.report.VacuumReport;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The run record of the blueprint (the flow this project replaces), which dashboards and alerts
 * read: 21 fields under its names, in its order. Every stored telemetry record carries them at its
 * top level ({@link TelemetryRecord}); this is the one place that says where each comes from in the
 * report, whose own names stay as they are. Numbers are numbers and booleans booleans; a field is
 * null only where nothing was measured.
 *
 * @param tableUri the table's canonical URI (report {@code table_uri})
 * @param evaluatedAt ISO-8601 UTC time the run started (report {@code evaluated_at})
 * @param executionId the run's id (report {@code execution_id})
 * @param smallFileThresholdMb the input {@code small_file_threshold_mb} after defaults (report
 *     {@code inputs.small_file_threshold_mb})
 * @param compactionRatioThresholdPct the input {@code compaction_ratio_threshold_pct} after
 *     defaults (report {@code inputs.compaction_ratio_threshold_pct})
 * @param totalFilesBefore active files when the run inspected the table, before any rewrite (report
 *     {@code total_files})
 * @param smallFilesBefore those below {@code small_file_threshold_mb} (report {@code
 *     total_small_files})
 * @param smallFileRatioPct small files as a percentage of files, before any rewrite (report {@code
 *     small_file_ratio_pct})
 * @param compactionExecuted whether a rewrite was committed (report {@code compacted}); false when
 *     the run did not compact, including the {@code vacuum} command
 * @param filesAfter active files after the rewrite (report {@code files_after}); {@code
 *     totalFilesBefore} when nothing was rewritten
 * @param filesReduced {@code totalFilesBefore - filesAfter} (report {@code files_reduced}); 0 when
 *     nothing was rewritten
 * @param bytesCompacted input bytes rewritten (report {@code bytes_compacted}); 0 when none
 * @param bytesCompactedMb the same in MB (report {@code bytes_compacted_mb})
 * @param readLatencyPreMs median read before compaction (report {@code read_latency_pre_ms}); null
 *     when the probe did not run (the {@code vacuum} command), failed or was skipped
 * @param readLatencyPostMs median read after it (report {@code read_latency_post_ms}); null when
 *     nothing was rewritten or the measurement after compaction was skipped
 * @param latencySpeedupPct {@code (pre - post) / pre * 100} (report {@code latency_speedup_pct});
 *     null without a post measurement
 * @param latencyRegressionDetected whether the read before compaction exceeded {@code
 *     latency_sla_ms} (report {@code latency_regression_detected}); null when it was not measured
 * @param vacuumRetentionHours the retention vacuum applied (report {@code vacuum_retention_hours}:
 *     the largest of the 168 h floor, the input and the table's property); null when vacuum did not
 *     run
 * @param vacuumDryRun whether vacuum only listed (report {@code vacuum_dry_run})
 * @param vacuumCandidateFiles files vacuum found to delete (report {@code candidate_files_count})
 * @param vacuumDeletedFiles files it deleted, 0 in a dry run (report {@code deleted_files_count})
 */
public record BlueprintRecord(
    String tableUri,
    String evaluatedAt,
    String executionId,
    Double smallFileThresholdMb,
    Double compactionRatioThresholdPct,
    int totalFilesBefore,
    int smallFilesBefore,
    double smallFileRatioPct,
    boolean compactionExecuted,
    int filesAfter,
    int filesReduced,
    long bytesCompacted,
    double bytesCompactedMb,
    Double readLatencyPreMs,
    Double readLatencyPostMs,
    Double latencySpeedupPct,
    Boolean latencyRegressionDetected,
    Long vacuumRetentionHours,
    Boolean vacuumDryRun,
    Integer vacuumCandidateFiles,
    Integer vacuumDeletedFiles) {

  /**
   * Where records stored before these fields state the same fact: the report's name, or {@code
   * inputs.<name>}. The other blueprint fields have the report's names.
   */
  private static final Map<String, String> EARLIER_NAMES =
      Map.of(
          "total_files_before", "total_files",
          "small_files_before", "total_small_files",
          "compaction_executed", "compacted",
          "vacuum_candidate_files", "candidate_files_count",
          "vacuum_deleted_files", "deleted_files_count",
          "small_file_threshold_mb", "inputs.small_file_threshold_mb",
          "compaction_ratio_threshold_pct", "inputs.compaction_ratio_threshold_pct");

  private static final ObjectMapper SNAKE_CASE =
      new ObjectMapper().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);

  /**
   * Builds this mapper's serializer of the record and its conversion to a map, ahead of the first
   * record (see {@link company.data.compactor.report.ReportJson#prepareInBackground}).
   */
  public static void prepare() {
    SNAKE_CASE.canSerialize(BlueprintRecord.class);
    SNAKE_CASE.canDeserialize(SNAKE_CASE.constructType(LinkedHashMap.class));
  }

  /** The blueprint's record of the run {@code report} describes. */
  public static BlueprintRecord of(MaintenanceReport report) {
    CompactionReport compaction = report.compaction();
    boolean planned = compaction != null;
    LatencyReport latency = report.latency();
    VacuumReport vacuum = report.vacuum();
    return new BlueprintRecord(
        report.tableUri(),
        report.evaluatedAt(),
        report.executionId(),
        input(report, "small_file_threshold_mb"),
        input(report, "compaction_ratio_threshold_pct"),
        report.totalFiles(),
        report.totalSmallFiles(),
        report.smallFileRatioPct(),
        planned && compaction.compacted(),
        planned ? compaction.filesAfter() : report.totalFiles(),
        planned ? compaction.filesReduced() : 0,
        planned ? compaction.bytesCompacted() : 0,
        planned ? compaction.bytesCompactedMb() : 0.0,
        latency == null ? null : latency.readLatencyPreMs(),
        latency == null ? null : latency.readLatencyPostMs(),
        latency == null ? null : latency.latencySpeedupPct(),
        latency == null ? null : latency.latencyRegressionDetected(),
        vacuum == null ? null : vacuum.vacuumRetentionHours(),
        vacuum == null ? null : vacuum.vacuumDryRun(),
        vacuum == null ? null : vacuum.candidateFilesCount(),
        vacuum == null ? null : vacuum.deletedFilesCount());
  }

  /** The fields by their blueprint names, in the blueprint's order, nulls included. */
  @SuppressWarnings("unchecked")
  public Map<String, Object> asMap() {
    return SNAKE_CASE.convertValue(this, LinkedHashMap.class);
  }

  /**
   * {@code field} (a blueprint name) of a stored {@code record}, also of one written before the
   * blueprint's fields were stored, where the fact stands under the report's name; null when the
   * record has neither.
   */
  public static Object read(Map<String, Object> record, String field) {
    if (record.containsKey(field)) {
      return record.get(field);
    }
    String earlier = EARLIER_NAMES.getOrDefault(field, field);
    if (earlier.startsWith("inputs.")) {
      return record.get("inputs") instanceof Map<?, ?> inputs
          ? inputs.get(earlier.substring("inputs.".length()))
          : null;
    }
    return record.get(earlier);
  }

  private static Double input(MaintenanceReport report, String name) {
    return report.inputs() != null && report.inputs().get(name) instanceof Number n
        ? n.doubleValue()
        : null;
  }
}
