package company.data.compactor.lambda;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

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
import org.junit.jupiter.api.Test;

/** The EventBridge schedule through the mock event server, fed events/schedule.json. */
@QuarkusTest
@TestProfile(ScheduleProfile.class)
class ScheduledMaintenanceTest {

  private static final Path WORK = Path.of("target/lambda-work").toAbsolutePath();
  private static final LeaseStore LEASES = new TableLeaseStore(location -> new LocalStorage());

  private static Response schedule() throws Exception {
    return given()
        .contentType("application/json")
        .body(Files.readString(Path.of("events", "schedule.json")))
        .when()
        .post();
  }

  @Test
  void scheduledEvent_maintainsEveryConfiguredTable_andAFailingTableDoesNotStopTheOthers()
      throws Exception {
    Response response = schedule();

    assertThat(response.statusCode()).as(response.asString()).isEqualTo(200);
    assertThat(response.jsonPath().getString("trigger")).isEqualTo("schedule");
    assertThat(response.jsonPath().getInt("tables_total")).isEqualTo(3);
    assertThat(response.jsonPath().getInt("succeeded")).isEqualTo(2);
    assertThat(response.jsonPath().getInt("failed")).isEqualTo(1);
    assertThat(response.jsonPath().getList("tables.status"))
        .containsExactly("succeeded", "failed", "succeeded");
    assertThat(response.jsonPath().getList("tables.table_uri"))
        .containsExactly(
            "file:" + WORK.resolve("schedule_a"),
            "file:" + WORK.resolve("schedule_missing"),
            "file:" + WORK.resolve("schedule_b"));
    assertThat(response.jsonPath().getString("tables[1].error_kind")).isEqualTo("TABLE_NOT_FOUND");
    assertThat(response.jsonPath().getString("tables[1].error"))
        .startsWith("No Delta table at file:" + WORK.resolve("schedule_missing"));
    assertThat(response.jsonPath().getInt("tables[0].report.files_after")).isEqualTo(3);
    assertThat(response.jsonPath().getLong("tables[2].report.total_rows")).isEqualTo(1500);
    assertThat(response.jsonPath().getInt("tables[2].report.vacuum_retention_hours"))
        .isEqualTo(200);
    assertThat(response.jsonPath().getString("tables[0].execution_id"))
        .isEqualTo(response.jsonPath().getString("tables[0].report.execution_id"));
    for (String name : new String[] {"schedule_a", "schedule_missing", "schedule_b"}) {
      assertThat(
              LEASES
                  .tryAcquire(
                      TableLocation.parse(name, WORK),
                      "probe",
                      Instant.now(),
                      Duration.ofSeconds(60))
                  .succeeded())
          .as("lease of %s released", name)
          .isTrue();
      LEASES.release(
          new Lease(
              company.data.compactor.model.TableKeys.compactionKey(TableLocation.parse(name, WORK)),
              TableLocation.parse(name, WORK).uri(),
              "probe",
              Instant.now(),
              Instant.now()));
    }
  }

  @Test
  void scheduledEvent_skipsATableAnotherRunHolds() throws Exception {
    TableLocation busy = TableLocation.parse("schedule_b", WORK);
    Lease lease =
        LEASES
            .tryAcquire(busy, "webhook-run-7", Instant.now(), Duration.ofMinutes(20))
            .acquired()
            .orElseThrow();
    try {
      Response response = schedule();

      assertThat(response.jsonPath().getList("tables.status"))
          .containsExactly("succeeded", "failed", "skipped");
      assertThat(response.jsonPath().getInt("skipped")).isEqualTo(1);
      assertThat(response.jsonPath().getString("tables[2].reason"))
          .contains("run webhook-run-7 holds the table's lease");
    } finally {
      LEASES.release(lease);
    }
  }
}
