package company.data.compactor.faults;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import company.data.compactor.testing.AwsStandIns;
import company.data.compactor.testing.DynoxideServer;
import company.data.compactor.testing.FaultProxy;
import company.data.compactor.testing.FaultProxy.Fault;
import company.data.compactor.testing.FaultScenario;
import java.net.URI;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Faults in DynamoDB (telemetry, leases) and Slack around a run whose maintenance succeeds (issue
 * 23, items 2 and 3): the report is always printed, the failure is reported in it, logged and
 * alerted, and the exit code says "maintenance done, reporting failed" (3).
 */
class SideServiceFaultsIT {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path work;
  private FaultScenario table;
  private FaultProxy dynamo;
  private final String hook = "/services/faults/" + UUID.randomUUID();
  private final WireMock slack = AwsStandIns.client();

  @BeforeEach
  void start() {
    table = FaultScenario.fresh(work);
    dynamo = FaultProxy.in(URI.create(DynoxideServer.shared().endpoint()));
    slack.register(post(urlEqualTo(hook)).willReturn(aResponse().withStatus(200).withBody("ok")));
  }

  @AfterEach
  void stop() {
    dynamo.close();
    table.close();
  }

  /**
   * The table's S3 through its proxy, telemetry and leases in fresh DynamoDB tables through the
   * DynamoDB proxy, Slack on WireMock.
   */
  private Map<String, String> environment(String telemetryTable, String leaseTable) {
    Map<String, String> env = new HashMap<>(table.environment());
    env.put("AWS_ENDPOINT_URL_DYNAMODB", dynamo.endpoint().toString());
    env.put("COMPACTOR_TELEMETRY_TABLE", telemetryTable);
    env.put("COMPACTOR_LEASE_TABLE", leaseTable);
    env.put("SLACK_WEBHOOK_URL", AwsStandIns.endpoint() + hook);
    env.put("COMPACTOR_SLACK_MAX_ATTEMPTS", "1");
    return env;
  }

  private List<String> slackTexts() {
    return slack.find(postRequestedFor(urlEqualTo(hook))).stream()
        .map(LoggedRequest::getBodyAsString)
        .toList();
  }

  private static int items(String tableName) {
    try (DynamoDbClient client = DynoxideServer.shared().client()) {
      return client.scan(b -> b.tableName(tableName)).count();
    }
  }

  @Test
  void telemetryThrottledAfterTheCommit_reportPrinted_exit3_alerted_andTheCommitStands()
      throws Exception {
    String telemetry = DynoxideServer.shared().newTelemetryTable();
    Map<String, String> env = environment(telemetry, DynoxideServer.shared().newLeaseTable());
    dynamo.onDynamoDb(
        "PutItem", 2, 4, Fault.dynamoDb(400, "ProvisionedThroughputExceededException"));

    FaultScenario.Result run = table.run(env, "--notify-slack", "true");

    assertThat(run.code()).as(run.err()).isEqualTo(3);
    JsonNode report = JSON.readTree(run.out());
    assertThat(report.get("files_after").asInt()).isEqualTo(3);
    assertThat(report.get("version_after").asLong()).isEqualTo(33);
    assertThat(report.get("telemetry_status").asText()).isEqualTo("failed");
    assertThat(report.get("telemetry_error").asText())
        .startsWith(
            "Failed while recording run "
                + report.get("execution_id").asText()
                + " of "
                + table.uri()
                + " in DynamoDB table "
                + telemetry
                + ": ProvisionedThroughputExceededException: injected by FaultProxy");
    assertThat(report.get("lease_release_status").asText()).isEqualTo("released");
    assertThat(items(telemetry)).isZero();
    List<String> texts = slackTexts();
    assertThat(texts).hasSize(2);
    assertThat(texts.get(0)).contains("compacted");
    assertThat(texts.get(1))
        .contains("delta-compactor: telemetry failed for " + table.uri() + " (OPERATION_FAILED)");
    CommitFaultsIT.assertConverged(table, env);
    assertThat(items(telemetry)).isEqualTo(1);
  }

  @Test
  void lostResponseToTheTelemetryPutItem_theRetryFindsItsOwnItem_recordedOnce() throws Exception {
    String telemetry = DynoxideServer.shared().newTelemetryTable();
    Map<String, String> env = environment(telemetry, DynoxideServer.shared().newLeaseTable());
    dynamo.onDynamoDb("PutItem", 2, 2, new Fault.DropResponse());

    FaultScenario.Result run = table.run(env);

    assertThat(run.code()).as(run.err()).isZero();
    JsonNode report = JSON.readTree(run.out());
    assertThat(report.get("telemetry_status").asText()).isEqualTo("recorded");
    assertThat(report.get("telemetry_error").isNull()).isTrue();
    assertThat(items(telemetry)).isEqualTo(1);
  }

  @Test
  void leaseReleaseFails_reportedWithExit3_neverTurnedIntoAFailedRun() throws Exception {
    String leases = DynoxideServer.shared().newLeaseTable();
    Map<String, String> env = environment(DynoxideServer.shared().newTelemetryTable(), leases);
    dynamo.onDynamoDb("DeleteItem", 1, 1000, Fault.dynamoDb(500, "InternalServerError"));

    FaultScenario.Result run = table.run(env, "--notify-slack", "true");

    assertThat(run.code()).as(run.err()).isEqualTo(3);
    JsonNode report = JSON.readTree(run.out());
    assertThat(report.get("files_after").asInt()).isEqualTo(3);
    assertThat(report.get("telemetry_status").asText()).isEqualTo("recorded");
    assertThat(report.get("lease_release_status").asText()).isEqualTo("failed");
    assertThat(report.get("lease_release_error").asText())
        .startsWith(
            "the lease of "
                + table.uri()
                + " could not be released after 3 attempts (Failed while releasing the lease of "
                + table.uri()
                + " in DynamoDB table "
                + leases
                + ": InternalServerErrorException: injected by FaultProxy (Service: DynamoDb, Status Code: 500")
        .contains("it blocks other runs of the table until it expires at ");
    assertThat(slackTexts()).hasSize(2);
    assertThat(slackTexts().get(1))
        .contains("delta-compactor: lease failed for " + table.uri() + " (LEASE_NOT_RELEASED)");
  }

  @Test
  void leaseReleaseFailsAfterAFailedRun_theRunsOwnErrorIsReported() {
    Map<String, String> env =
        environment(
            DynoxideServer.shared().newTelemetryTable(), DynoxideServer.shared().newLeaseTable());
    dynamo.onDynamoDb("DeleteItem", 1, 1000, Fault.dynamoDb(500, "InternalServerError"));
    table.s3().on("GET", ".*\\.parquet.*", 1, 1000, Fault.s3(403, "AccessDenied"));

    FaultScenario.Result run = table.run(env, "--latency-sla-ms", "150");

    assertThat(run.code()).isEqualTo(1);
    assertThat(run.err())
        .startsWith("compactor: error: Failed while ")
        .contains("S3 failed while reading s3://" + table.uri().substring(5))
        .contains("injected by FaultProxy (Service: S3, Status Code: 403")
        .doesNotContain("lease");
  }

  @Test
  void dynamoDbDownAtStart_refusedBeforeAnyS3Request_andTheLeaseFailureAlerted() {
    Map<String, String> env =
        environment(
            DynoxideServer.shared().newTelemetryTable(), DynoxideServer.shared().newLeaseTable());
    env.put("AWS_ENDPOINT_URL_DYNAMODB", "http://127.0.0.1:9");

    FaultScenario.Result run = table.run(env, "--notify-slack", "true");

    assertThat(run.code()).isEqualTo(1);
    assertThat(run.err())
        .startsWith("compactor: error: Failed while taking the lease of " + table.uri());
    assertThat(table.s3().seen()).isEmpty();
    assertThat(slackTexts())
        .singleElement()
        .asString()
        .contains("delta-compactor: lease failed for " + table.uri() + " (OPERATION_FAILED)");
  }

  @Test
  void slackHangs_theRunIsUnaffected_andTheReportSaysSlackFailed() throws Exception {
    slack.register(
        post(urlEqualTo(hook)).willReturn(aResponse().withStatus(200).withFixedDelay(5_000)));
    Map<String, String> env =
        environment(
            DynoxideServer.shared().newTelemetryTable(), DynoxideServer.shared().newLeaseTable());

    FaultScenario.Result run = table.run(env, "--notify-slack", "true");

    assertThat(run.code()).as(run.err()).isZero();
    JsonNode report = JSON.readTree(run.out());
    assertThat(report.get("files_after").asInt()).isEqualTo(3);
    assertThat(report.get("slack_notification").asText()).isEqualTo("failed");
    assertThat(report.get("slack_notification_detail").asText())
        .isEqualTo("HttpTimeoutException, gave up after 1 attempts");
  }
}
