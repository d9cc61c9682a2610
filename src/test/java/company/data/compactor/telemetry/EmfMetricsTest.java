package company.data.compactor.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import company.data.compactor.admission.Admission;
import company.data.compactor.admission.AdmittedRun;
import company.data.compactor.admission.Trigger;
import company.data.compactor.report.CompactionPartitionReport;
import company.data.compactor.report.ExecutionReport;
import company.data.compactor.report.MaintenanceReport;
import company.data.compactor.report.PartitionReport;
import company.data.compactor.wiring.Wiring;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The EMF lines of a real run's report: valid EMF, and the report's own figures. */
class EmfMetricsTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Instant NOW = Instant.parse("2026-12-01T02:00:00Z");

  @TempDir static Path work;
  private static MaintenanceReport report;
  private static JsonSchema schema;

  @BeforeAll
  static void aRealRun() throws Exception {
    AdmittedRun run =
        Admission.configuredBy(Map.of(), work)
            .admit(Trigger.CLI, Map.of("table_uri", "demo", "demo_mode", true));
    report = Wiring.pipeline(run.location(), work, Map.of()).run(run);
    try (InputStream in = EmfMetricsTest.class.getResourceAsStream("/emf/emf-schema.json")) {
      schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V7).getSchema(in);
    }
  }

  /** Schema errors of {@code line}, plus every target member that is missing or mistyped. */
  private static List<String> emfProblems(String line) throws Exception {
    JsonNode root = JSON.readTree(line);
    List<String> problems =
        new java.util.ArrayList<>(schema.validate(root).stream().map(Object::toString).toList());
    for (JsonNode directive : root.path("_aws").path("CloudWatchMetrics")) {
      for (JsonNode set : directive.path("Dimensions")) {
        for (JsonNode key : set) {
          if (!root.path(key.asText()).isTextual()) {
            problems.add("dimension " + key + " is not a string member of the root");
          }
        }
      }
      for (JsonNode metric : directive.path("Metrics")) {
        if (!root.path(metric.path("Name").asText()).isNumber()) {
          problems.add("metric " + metric.path("Name") + " is not a number member of the root");
        }
      }
    }
    return problems;
  }

  @Test
  void everyLine_isValidEmf_withTheTableDimension() throws Exception {
    List<String> lines = EmfMetrics.lines(report, NOW);

    assertThat(lines).hasSize(1 + report.compaction().compactionPartitions().size());
    for (String line : lines) {
      assertThat(emfProblems(line)).as(line).isEmpty();
      JsonNode root = JSON.readTree(line);
      assertThat(root.at("/_aws/Timestamp").asLong()).isEqualTo(NOW.toEpochMilli());
      assertThat(root.at("/_aws/CloudWatchMetrics/0/Namespace").asText())
          .isEqualTo("DeltaCompactor");
      assertThat(root.at("/_aws/CloudWatchMetrics/0/Dimensions/0").toString())
          .isEqualTo("[\"table\"]");
      assertThat(root.get("table").asText()).isEqualTo(report.tableUri());
    }
  }

  @Test
  void theRunLine_carriesTheReportsFigures() throws Exception {
    JsonNode run = JSON.readTree(EmfMetrics.lines(report, NOW).get(0));

    long bytesBefore = report.partitions().stream().mapToLong(PartitionReport::totalBytes).sum();
    assertThat(run.get("FilesBefore").asInt()).isEqualTo(report.totalFiles()).isEqualTo(30);
    assertThat(run.get("FilesAfter").asInt())
        .isEqualTo(report.compaction().filesAfter())
        .isEqualTo(3);
    assertThat(run.get("BytesBefore").asLong()).isEqualTo(bytesBefore);
    assertThat(run.get("BytesAfter").asLong())
        .isEqualTo(
            bytesBefore
                - report.compaction().bytesCompacted()
                + report.compaction().bytesWritten());
    assertThat(run.get("SmallFileRatioPct").asDouble()).isEqualTo(report.smallFileRatioPct());
    assertThat(run.get("RewriteMBps").asDouble())
        .isEqualTo(report.compaction().compactionMbPerSec());
    assertThat(run.get("DurationMs").asLong()).isEqualTo(report.durationMs());
    assertThat(run.get("Conflicts").asInt()).isZero();
    assertThat(run.get("Failures").asInt()).isZero();
    assertThat(run.get("VacuumDeleted").asInt()).isEqualTo(report.vacuum().deletedFilesCount());
    assertThat(run.get("RunSucceeded").asInt()).isEqualTo(1);
    assertThat(run.get("RunPartial").asInt()).isZero();
    assertThat(run.get("execution_id").asText()).isEqualTo(report.executionId());
    // Also without dimensions, so one alarm covers every table.
    assertThat(run.at("/_aws/CloudWatchMetrics/0/Dimensions/1").toString()).isEqualTo("[]");
  }

  @Test
  void partitionLines_carryEachPartitionsFigures_andThePartitionAsAProperty() throws Exception {
    List<String> lines = EmfMetrics.lines(report, NOW);
    List<CompactionPartitionReport> partitions = report.compaction().compactionPartitions();
    for (int i = 0; i < partitions.size(); i++) {
      JsonNode line = JSON.readTree(lines.get(i + 1));
      CompactionPartitionReport p = partitions.get(i);
      PartitionReport before =
          report.partitions().stream()
              .filter(h -> h.partition().equals(p.partition()))
              .findFirst()
              .orElseThrow();
      assertThat(line.get("partition").asText()).isEqualTo(p.partition());
      assertThat(line.get("PartitionFilesBefore").asInt()).isEqualTo(before.fileCount());
      assertThat(line.get("PartitionFilesAfter").asInt())
          .isEqualTo(before.fileCount() - p.filesRemoved() + p.filesAdded())
          .isEqualTo(1);
      assertThat(line.get("PartitionBytesBefore").asLong()).isEqualTo(before.totalBytes());
      assertThat(line.get("PartitionBytesAfter").asLong())
          .isEqualTo(before.totalBytes() - p.bytesRemoved() + p.bytesAdded());
      assertThat(line.get("PartitionFailures").asInt()).isZero();
    }
  }

  @Test
  void aPartialStateMachineRun_isNotASuccess() throws Exception {
    MaintenanceReport partial =
        report.withExecution(ExecutionReport.stateMachine("over budget", 3, 2));

    JsonNode run = JSON.readTree(EmfMetrics.lines(partial, NOW).get(0));

    assertThat(emfProblems(run.toString())).isEmpty();
    assertThat(run.get("RunSucceeded").asInt()).isZero();
    assertThat(run.get("RunPartial").asInt()).isEqualTo(1);
    assertThat(run.get("execution_mode").asText()).isEqualTo("state_machine");
    assertThat(run.get("run_outcome").asText()).isEqualTo("partial");
  }

  @Test
  void theSchemaCheck_bites_onALineThatIsNotEmf() throws Exception {
    String broken =
        "{\"_aws\":{\"Timestamp\":1,\"CloudWatchMetrics\":[{\"Namespace\":\"DeltaCompactor\","
            + "\"Dimensions\":[[\"table\"]],\"Metrics\":[{\"Name\":\"FilesBefore\",\"Unit\":\"Files\"}]}]},"
            + "\"FilesBefore\":\"thirty\"}";

    assertThat(emfProblems(broken))
        .anySatisfy(p -> assertThat(p).contains("Unit"))
        .anySatisfy(p -> assertThat(p).contains("dimension \"table\""))
        .anySatisfy(p -> assertThat(p).contains("metric \"FilesBefore\""));
  }
}
