package company.data.compactor.lambda;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
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
    assertThat((List<?>) answer.get("items")).hasSize(3);
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
