package company.data.compactor.lambda;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.nio.file.Files;
import java.nio.file.Path;
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
}
