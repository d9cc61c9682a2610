package company.data.compactor.lambda;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.lease.Lease;
import company.data.compactor.lease.LeaseStore;
import company.data.compactor.lease.TableLeaseStore;
import company.data.compactor.model.TableLocation;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.testing.RefusedInputs;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The function through Quarkus's mock Lambda event server, fed the sample events in events/. */
@QuarkusTest
class MaintenanceFunctionTest {

  private static final Path WORK = Path.of("target/lambda-work");

  private static Response invoke(String eventFile) throws Exception {
    String event = Files.readString(Path.of("events", eventFile));
    return given().contentType("application/json").body(event).when().post();
  }

  @Test
  void directInvocation_onTheDemo_returnsTheReportWithBlueprintFieldNames() throws Exception {
    Response response = invoke("direct-demo.json");

    assertThat(response.statusCode()).as(response.asString()).isEqualTo(200);
    assertThat(response.jsonPath().getInt("schema_version")).isEqualTo(1);
    assertThat(response.jsonPath().getInt("total_files")).isEqualTo(30);
    assertThat(response.jsonPath().getInt("total_small_files")).isEqualTo(30);
    assertThat(response.jsonPath().getDouble("small_file_ratio_pct")).isEqualTo(100.0);
    assertThat(response.jsonPath().getLong("total_rows")).isEqualTo(1500);
    assertThat(response.jsonPath().getBoolean("compaction_required")).isTrue();
    assertThat(response.jsonPath().getBoolean("compacted")).isTrue();
    assertThat(response.jsonPath().getInt("files_after")).isEqualTo(3);
    assertThat(response.jsonPath().getLong("version_after")).isEqualTo(33);
    assertThat(response.jsonPath().getString("table_uri"))
        .isEqualTo("file:" + WORK.toAbsolutePath().resolve("demo_delta_table"));
  }

  @Test
  void directInvocation_withInvalidInputs_failsNamingEachRule_andTouchesNothing() throws Exception {
    Response response = invoke("direct-invalid-retention.json");

    assertThat(response.statusCode()).isEqualTo(500);
    assertThat(response.asString())
        .contains("vacuum_retention_hours=24: must be >= 168")
        .contains("small_file_threshold_mb=0: must be > 0");
    assertThat(WORK.resolve("invalid_request_table")).doesNotExist();
  }

  private static final LeaseStore LEASES = new TableLeaseStore(location -> new LocalStorage());

  private static Response post(Object event) throws Exception {
    return given()
        .contentType("application/json")
        .body(new ObjectMapper().writeValueAsString(event))
        .when()
        .post();
  }

  private static TableLocation table(String name) {
    return TableLocation.parse(name, WORK.toAbsolutePath());
  }

  @Test
  void handOff_runsTheAcceptedRequest_underTheWebhooksLease_thenReleasesIt_andADuplicateIsRefused()
      throws Exception {
    TableLocation table = table("handoff_demo_table");
    Lease lease =
        LEASES
            .tryAcquire(table, "run-handoff-1", Instant.now(), Duration.ofMinutes(20))
            .acquired()
            .orElseThrow();
    Map<String, Object> event =
        new Handoff(
                "run-handoff-1",
                Map.of("demo_mode", true, "table_uri", "handoff_demo_table"),
                lease)
            .toEvent();

    Response first = post(event);
    Response duplicate = post(event);

    assertThat(first.statusCode()).as(first.asString()).isEqualTo(200);
    assertThat(first.jsonPath().getString("execution_id")).isEqualTo("run-handoff-1");
    assertThat(first.jsonPath().getInt("files_after")).isEqualTo(3);
    Lease next =
        LEASES
            .tryAcquire(table, "next-run", Instant.now(), Duration.ofMinutes(1))
            .acquired()
            .orElseThrow();
    LEASES.release(next);
    assertThat(duplicate.statusCode()).isEqualTo(500);
    assertThat(duplicate.asString())
        .contains(
            "Refused to run maintenance of "
                + table
                + " for run run-handoff-1: that run no longer holds the table's lease");
  }

  @Test
  void directInvocation_whileAnotherRunHoldsTheTable_isRefused_andTouchesNothing()
      throws Exception {
    TableLocation table = table("leased_demo_table");
    Lease lease =
        LEASES
            .tryAcquire(table, "run-elsewhere", Instant.now(), Duration.ofMinutes(20))
            .acquired()
            .orElseThrow();
    try {
      Response response = post(Map.of("demo_mode", true, "table_uri", "leased_demo_table"));

      assertThat(response.statusCode()).isEqualTo(500);
      assertThat(response.asString()).contains("run run-elsewhere holds the table's lease until");
      assertThat(WORK.resolve("leased_demo_table/_delta_log"))
          .as("only the other run's lease record is there")
          .doesNotExist();
    } finally {
      LEASES.release(lease);
    }
  }

  @Test
  void directInvocation_withRetention167Hours_isRefused_andTouchesNothing() throws Exception {
    Response response =
        post(
            Map.of(
                "demo_mode",
                true,
                "table_uri",
                "retention_167_table",
                "vacuum_retention_hours",
                167));

    assertThat(response.statusCode()).isEqualTo(500);
    assertThat(response.asString()).contains("vacuum_retention_hours=167: must be >= 168");
    assertThat(WORK.resolve("retention_167_table")).doesNotExist();
  }

  @Test
  void directInvocation_withDotDotInTheTableUri_isRefusedNamingTheRule_andSeedsNothing()
      throws Exception {
    Response response = post(Map.of("demo_mode", true, "table_uri", "tables/../escaped_table"));

    assertThat(response.statusCode()).isEqualTo(500);
    assertThat(response.asString())
        .contains(
            "table_uri=tables/../escaped_table: must not contain . or .. path"
                + " segments; they are refused, never resolved: name the table by its canonical path");
    assertThat(WORK.resolve("escaped_table")).doesNotExist();
  }

  @Test
  void directInvocation_withTheSharedRefusedInputs_failsWithTheAdmissionMessage() throws Exception {
    Response response = post(RefusedInputs.INPUTS);

    assertThat(response.statusCode()).isEqualTo(500);
    assertThat(response.asString()).contains(RefusedInputs.message());
    assertThat(WORK.resolve("t")).doesNotExist();
  }
}
