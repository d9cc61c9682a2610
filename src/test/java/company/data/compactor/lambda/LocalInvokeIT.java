package company.data.compactor.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged artifact (target/function.zip, built by the package phase before this runs) under
 * AWS's own runtime interface client, through bin/local-invoke, fed the sample events.
 */
class LocalInvokeIT {

  @TempDir Path work;

  private record Invocation(int exit, String response) {}

  private Invocation invoke(String event, String... environment) throws Exception {
    List<String> command = new ArrayList<>(List.of("bin/local-invoke", "events/" + event));
    command.addAll(List.of(environment));
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
    builder.environment().put("COMPACTOR_WORK_DIR", work.toString());
    Process process = builder.start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(240, TimeUnit.SECONDS)).isTrue();
    return new Invocation(process.exitValue(), out.strip());
  }

  @Test
  void scheduledEvent_onADemoTable_compactsIt_inTheRealArtifact() throws Exception {
    Invocation result =
        invoke(
            "schedule.json",
            "COMPACTOR_SCHEDULED_TABLES=[{\"table_uri\": \"demo_delta_table\", \"demo_mode\": true}]");

    assertThat(result.exit()).as(result.response()).isZero();
    JsonNode response = new ObjectMapper().readTree(result.response());
    assertThat(response.get("succeeded").asInt()).isEqualTo(1);
    JsonNode report = response.get("tables").get(0).get("report");
    assertThat(report.get("table_uri").asText())
        .isEqualTo("file:" + work.resolve("demo_delta_table"));
    assertThat(report.get("total_rows").asLong()).isEqualTo(1500);
    assertThat(report.get("files_before").asInt()).isEqualTo(30);
    assertThat(report.get("files_after").asInt()).isEqualTo(3);
    assertThat(report.get("version_after").asLong()).isEqualTo(33);
    assertThat(Files.readString(work.resolve(".delta-compactor/telemetry.jsonl")))
        .contains(report.get("execution_id").asText());
  }

  @Test
  void directInvocation_withRetention24Hours_failsNamingTheRule_andTouchesNothing()
      throws Exception {
    Invocation result = invoke("direct-invalid-retention.json");

    assertThat(result.exit()).isEqualTo(1);
    assertThat(new ObjectMapper().readTree(result.response()).get("errorMessage").asText())
        .contains("vacuum_retention_hours=24: must be >= 168")
        .contains("small_file_threshold_mb=0: must be > 0");
    try (var files = Files.list(work)) {
      assertThat(files).isEmpty();
    }
  }

  @Test
  void webhookFunction_inTheRealArtifact_refusesAWrongKey() throws Exception {
    Invocation result =
        invoke(
            "webhook-wrong-key.json",
            "QUARKUS_FUNQY_EXPORT=webhook",
            "DELTA_COMPACTOR_WEBHOOK_KEY=local-test-key-not-a-secret",
            "COMPACTOR_MAINTENANCE_FUNCTION=delta-compactor-maintenance",
            "COMPACTOR_ALLOWED_TABLE_PREFIXES=s3://delta-lake-prod/tables");

    assertThat(result.exit()).as(result.response()).isZero();
    JsonNode response = new ObjectMapper().readTree(result.response());
    assertThat(response.get("statusCode").asInt()).isEqualTo(401);
    assertThat(response.get("body").asText())
        .isEqualTo("{\"error\":\"unauthorized\",\"message\":\"unauthorized\"}");
  }
}
