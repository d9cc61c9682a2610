package company.data.compactor.telemetry.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.admission.Admission;
import company.data.compactor.admission.AdmittedRun;
import company.data.compactor.admission.Trigger;
import company.data.compactor.lease.LeaseGuard;
import company.data.compactor.model.TableKeys;
import company.data.compactor.model.TableLocation;
import company.data.compactor.report.MaintenanceReport;
import company.data.compactor.telemetry.TelemetryStore;
import company.data.compactor.testing.CliRunner;
import company.data.compactor.testing.CliRunner.Result;
import company.data.compactor.testing.DynoxideServer;
import company.data.compactor.wiring.Wiring;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Run telemetry in a real DynamoDB-compatible server (Dynoxide), written by real runs. */
class DynamoDbTelemetryIT {

  @TempDir Path work;

  private Map<String, String> environment(String table) {
    Map<String, String> env = new HashMap<>(DynoxideServer.shared().environment());
    env.put("COMPACTOR_TELEMETRY_TABLE", table);
    env.put("COMPACTOR_TELEMETRY_TTL_DAYS", "30");
    return env;
  }

  private static Result cli(Map<String, String> env, String... args) {
    return CliRunner.run(env, args);
  }

  @Test
  void everyRun_isOneItem_withNumbersAsNumbers_andNestedPartitions_andATtl() throws Exception {
    String table = DynoxideServer.shared().newTelemetryTable();
    Result run = cli(environment(table), "run", "--work-dir", work.toString(), "--json");
    assertThat(run.code()).as(run.err()).isZero();
    JsonNode report = new ObjectMapper().readTree(run.out());
    TableLocation location = TableLocation.parse("demo_delta_table", work);

    List<Map<String, AttributeValue>> items;
    try (DynamoDbClient dynamo = DynoxideServer.shared().client()) {
      items = dynamo.scan(b -> b.tableName(table)).items();
    }

    assertThat(items).hasSize(1);
    Map<String, AttributeValue> item = items.get(0);
    assertThat(item.get("table_key").s())
        .isEqualTo(TableKeys.compactionKey(location))
        .startsWith("delta_compaction_");
    assertThat(item.get("run_key").s())
        .endsWith("#" + report.get("execution_id").asText())
        .matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{9}Z#.*");
    assertThat(item.get("schema_version").n()).isEqualTo("1");
    assertThat(item.get("total_files").n()).isEqualTo("30");
    assertThat(item.get("files_after").n()).isEqualTo("3");
    assertThat(item.get("small_file_ratio_pct").n()).isEqualTo("100");
    assertThat(item.get("compacted").bool()).isTrue();
    assertThat(item.get("table_uri").s()).isEqualTo(location.uri());
    assertThat(item.get("partitions").l()).hasSize(3);
    assertThat(item.get("partitions").l().get(0).m().get("file_count").n()).isEqualTo("10");
    long evaluated = java.time.Instant.parse(report.get("evaluated_at").asText()).getEpochSecond();
    assertThat(Long.parseLong(item.get("expires_at").n())).isEqualTo(evaluated + 30L * 24 * 3600);
    assertThat(work.resolve(".delta-compactor/telemetry.jsonl")).doesNotExist();
  }

  @Test
  void history_readsRunsBack_newestFirst_limited_andOnlyThisTables() throws Exception {
    String table = DynoxideServer.shared().newTelemetryTable();
    Map<String, String> env = environment(table);
    List<String> ids = new java.util.ArrayList<>();
    for (int i = 0; i < 3; i++) {
      Result run = cli(env, "run", "--work-dir", work.toString(), "--json");
      assertThat(run.code()).as(run.err()).isZero();
      ids.add(new ObjectMapper().readTree(run.out()).get("execution_id").asText());
    }
    assertThat(cli(env, "run", "--work-dir", work.toString(), "--table-uri", "other_demo").code())
        .isZero();

    Result history =
        cli(
            env,
            "history",
            "--work-dir",
            work.toString(),
            "--table-uri",
            "demo_delta_table",
            "--limit",
            "2",
            "--json");
    Result text =
        cli(env, "history", "--work-dir", work.toString(), "--table-uri", "demo_delta_table");

    assertThat(history.code()).as(history.err()).isZero();
    JsonNode runs = new ObjectMapper().readTree(history.out());
    assertThat(runs).hasSize(2);
    assertThat(runs.get(0).get("execution_id").asText()).isEqualTo(ids.get(2));
    assertThat(runs.get(1).get("execution_id").asText()).isEqualTo(ids.get(1));
    assertThat(runs.get(0).get("files_after").asInt()).isEqualTo(3);
    assertThat(runs.get(0).get("partitions").get(0).get("file_count").asInt()).isEqualTo(10);
    assertThat(runs.get(0).get("schema_version").asInt()).isEqualTo(1);
    assertThat(history.err())
        .contains(
            "2 run(s) of file:" + work.resolve("demo_delta_table") + " from dynamodb:" + table);
    assertThat(text.out().lines().filter(l -> l.contains("run ")).count()).isEqualTo(3);
    assertThat(text.out()).contains(ids.get(0)).contains(" 0/0 ");
  }

  @Test
  void aRepeatedWriteOfTheSameExecution_isIdempotent_andTheFirstRecordKept() {
    String table = DynoxideServer.shared().newTelemetryTable();
    Map<String, String> env = environment(table);
    AdmittedRun run = Admission.configuredBy(env, work).admit(Trigger.CLI, Map.of());
    TableLocation location = run.location();
    MaintenanceReport report =
        Wiring.pipeline(location, work, env, "exec-fixed", LeaseGuard.UNGUARDED).run(run);
    TelemetryStore store = Wiring.telemetry(work, env);

    // A retried write (its first response lost) meets the item it stored: that is success.
    store.record(
        report.withDelivery(report.delivery().withTelemetry("recorded", "a second write")));

    assertThat(store.recent(location, 10)).hasSize(1);
    assertThat(store.recent(location, 10).get(0).get("execution_id")).isEqualTo("exec-fixed");
    assertThat(store.recent(location, 10).get(0).get("telemetry_status")).isEqualTo("recorded");
    assertThat(store.recent(location, 10).get(0).get("telemetry_error")).isNull();
  }

  @Test
  void withoutATable_theJsonLinesFile_servesHistoryToo() throws Exception {
    Map<String, String> env = Map.of();
    assertThat(cli(env, "run", "--work-dir", work.toString()).code()).isZero();
    assertThat(cli(env, "run", "--work-dir", work.toString()).code()).isZero();

    Result history =
        cli(
            env,
            "history",
            "--work-dir",
            work.toString(),
            "--table-uri",
            "demo_delta_table",
            "--json");

    JsonNode runs = new ObjectMapper().readTree(history.out());
    assertThat(runs).hasSize(2);
    assertThat(runs.get(0).get("evaluated_at").asText())
        .isGreaterThan(runs.get(1).get("evaluated_at").asText());
    assertThat(Files.readAllLines(work.resolve(".delta-compactor/telemetry.jsonl"))).hasSize(2);
    assertThat(history.err()).contains("telemetry.jsonl");
  }
}
