package company.data.compactor.lambda;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.delta.kernel.KernelDeltaTables;
import company.data.compactor.lease.Lease;
import company.data.compactor.lease.LeaseStore;
import company.data.compactor.lease.TableLeaseStore;
import company.data.compactor.model.TableLocation;
import company.data.compactor.storage.LocalStorage;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Each task of the fan-out state machine through Quarkus's mock Lambda event server, fed the sample
 * events in events/ (with the run id and lease the Plan task answered, as the state machine passes
 * them on).
 */
@QuarkusTest
@TestProfile(FanOutProfile.class)
class FanOutFunctionTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path WORK = Path.of("target/lambda-work");

  private static Map<String, Object> sample(String file) throws Exception {
    return JSON.readValue(
        Files.readString(Path.of("events", file)), new TypeReference<Map<String, Object>>() {});
  }

  private static Response post(Map<String, Object> event) throws Exception {
    return given()
        .contentType("application/json")
        .body(JSON.writeValueAsString(event))
        .when()
        .post();
  }

  @SuppressWarnings("unchecked")
  @Test
  void planCompactFinalize_eachThroughTheMockEventServer_compactTheDemoTable() throws Exception {
    String runId = "fanout-" + UUID.randomUUID();
    String table = "fanout_demo_" + runId.substring(7, 15);
    Map<String, Object> plan = sample("fanout-plan.json");
    plan.put("run_id", runId);
    ((Map<String, Object>) plan.get("inputs")).put("table_uri", table);

    Response planned = post(plan);

    assertThat(planned.statusCode()).as(planned.asString()).isEqualTo(200);
    Map<String, Object> answer = planned.as(new io.restassured.common.mapper.TypeRef<>() {});
    assertThat(answer.get("run_id")).isEqualTo(runId);
    assertThat(answer.get("item_count")).isEqualTo(3);
    assertThat(answer.get("max_concurrency")).isEqualTo(7);
    assertThat(answer).doesNotContainKey("items");
    assertThat(Files.readString(WORK.resolve(".delta-compactor/plans/" + runId + "/items.json")))
        .isEqualTo(
            "[{\"item\":0,\"partition\":\"event_date=2026-10-17\"},"
                + "{\"item\":1,\"partition\":\"event_date=2026-10-18\"},"
                + "{\"item\":2,\"partition\":\"event_date=2026-10-19\"}]");
    assertThat(WORK.resolve(".delta-compactor/plans/" + runId + "/plan.json")).exists();
    assertThat(WORK.resolve(".delta-compactor/plans/" + runId + "/items.json")).exists();

    for (int item = 0; item < 3; item++) {
      Map<String, Object> compact = sample("fanout-compact.json");
      compact.put("run_id", runId);
      compact.put("inputs", answer.get("inputs"));
      compact.put("lease", answer.get("lease"));
      compact.put("item", item);
      Response done = post(compact);
      assertThat(done.statusCode()).as(done.asString()).isEqualTo(200);
      assertThat(done.jsonPath().getString("status")).isEqualTo("COMMITTED");
      assertThat(done.jsonPath().getInt("files_removed")).isEqualTo(10);
      assertThat(done.jsonPath().getInt("files_added")).isEqualTo(1);
    }

    Map<String, Object> finalize = sample("fanout-finalize.json");
    finalize.put("run_id", runId);
    finalize.put("inputs", answer.get("inputs"));
    finalize.put("lease", answer.get("lease"));
    Response report = post(finalize);

    assertThat(report.statusCode()).as(report.asString()).isEqualTo(200);
    assertThat(report.jsonPath().getString("execution_mode")).isEqualTo("state_machine");
    assertThat(report.jsonPath().getString("run_outcome")).isEqualTo("complete");
    assertThat(report.jsonPath().getString("execution_reason"))
        .isEqualTo(finalize.get("execution_reason"));
    assertThat(report.jsonPath().getInt("total_files")).isEqualTo(30);
    assertThat(report.jsonPath().getInt("files_after")).isEqualTo(3);
    assertThat(report.jsonPath().getLong("total_rows")).isEqualTo(1500);
    assertThat(report.jsonPath().getString("lease_release_status")).isEqualTo("released");
  }

  @SuppressWarnings("unchecked")
  @Test
  void anItemOfARunThatLostItsLease_answersFenced_andWritesNothing() throws Exception {
    String runId = "fanout-" + UUID.randomUUID();
    String table = "fanout_fenced_" + runId.substring(7, 15);
    Map<String, Object> plan = sample("fanout-plan.json");
    plan.put("run_id", runId);
    ((Map<String, Object>) plan.get("inputs")).put("table_uri", table);
    Map<String, Object> answer =
        post(plan).as(new io.restassured.common.mapper.TypeRef<Map<String, Object>>() {});
    Map<?, ?> fields = (Map<?, ?>) answer.get("lease");
    Lease lease =
        new Lease(
            (String) fields.get("key"),
            (String) fields.get("table_uri"),
            (String) fields.get("owner"),
            Instant.parse((String) fields.get("acquired_at")),
            Instant.parse((String) fields.get("expires_at")));
    LeaseStore store = new TableLeaseStore(location -> new LocalStorage());
    TableLocation location = new TableLocation(lease.tableUri());
    store.release(lease);
    assertThat(
            store
                .tryAcquire(location, "another-run", Instant.now(), Duration.ofMinutes(20))
                .acquired())
        .isPresent();

    Map<String, Object> compact = sample("fanout-compact.json");
    compact.put("run_id", runId);
    compact.put("inputs", answer.get("inputs"));
    compact.put("lease", answer.get("lease"));
    Response fenced = post(compact);

    assertThat(fenced.statusCode()).as(fenced.asString()).isEqualTo(200);
    assertThat(fenced.jsonPath().getString("status")).isEqualTo("FENCED");
    assertThat(fenced.jsonPath().getString("detail"))
        .contains("that run no longer holds the table's lease")
        .endsWith("Nothing was written.");
    assertThat(new KernelDeltaTables(new LocalStorage()).loadLatest(location).activeFiles())
        .hasSize(30);
  }

  @Test
  void aTaskWithoutItsLease_failsNamingIt_andTouchesNothing() throws Exception {
    Map<String, Object> compact = sample("fanout-compact.json");
    compact.remove("lease");
    compact.put("run_id", "fanout-" + UUID.randomUUID());
    compact.put("inputs", new LinkedHashMap<>(Map.of("table_uri", "fanout_never_touched")));

    Response refused = post(compact);

    assertThat(refused.statusCode()).isEqualTo(500);
    assertThat(refused.asString()).contains("the event carries no lease. Nothing was touched.");
    assertThat(WORK.resolve("fanout_never_touched")).doesNotExist();
  }

  @Test
  void anUnknownTask_isRefused() throws Exception {
    Response refused = post(new LinkedHashMap<>(Map.of("task", "vacuum-everything")));

    assertThat(refused.statusCode()).isEqualTo(500);
    assertThat(refused.asString()).contains("it must be plan, compact or finalize");
  }
}
