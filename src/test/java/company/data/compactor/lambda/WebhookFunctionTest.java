package company.data.compactor.lambda;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import company.data.compactor.testing.AwsStandIns;
import company.data.compactor.testing.DynoxideServer;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The webhook function through Quarkus's mock Lambda event server, fed the sample events in
 * events/: leases in Dynoxide, the hand-off recorded by the Lambda Invoke stand-in.
 */
@QuarkusTest
@TestProfile(WebhookProfile.class)
class WebhookFunctionTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String INVOKE_PATH =
      "/2015-03-31/functions/" + WebhookProfile.MAINTENANCE_FUNCTION + "/invocations";

  private final WireMock lambda = AwsStandIns.client();

  @BeforeEach
  void resetStandInsAndLeases() {
    lambda.resetMappings();
    lambda.resetRequests();
    lambda.register(post(urlEqualTo(INVOKE_PATH)).willReturn(aResponse().withStatus(202)));
    try (DynamoDbClient dynamo = DynoxideServer.shared().client()) {
      for (Map<String, AttributeValue> item :
          dynamo.scan(b -> b.tableName(WebhookProfile.LEASE_TABLE)).items()) {
        dynamo.deleteItem(
            b ->
                b.tableName(WebhookProfile.LEASE_TABLE)
                    .key(Map.of("lease_key", item.get("lease_key"))));
      }
    }
  }

  private static String event(String file) throws Exception {
    return Files.readString(Path.of("events", file));
  }

  private static Response invoke(String event) {
    return given().contentType("application/json").body(event).when().post();
  }

  private static int status(Response response) {
    assertThat(response.statusCode()).as(response.asString()).isEqualTo(200);
    return response.jsonPath().getInt("statusCode");
  }

  private static JsonPath body(Response response) {
    return JsonPath.from(response.jsonPath().getString("body"));
  }

  private List<LoggedRequest> invocations() {
    return lambda.find(postRequestedFor(urlEqualTo(INVOKE_PATH)));
  }

  /** The items of the lease table, replay records left out. */
  private static List<Map<String, AttributeValue>> leases() {
    return items().stream().filter(i -> !i.get("lease_key").s().startsWith("replay#")).toList();
  }

  private static List<Map<String, AttributeValue>> items() {
    try (DynamoDbClient dynamo = DynoxideServer.shared().client()) {
      return dynamo.scan(b -> b.tableName(WebhookProfile.LEASE_TABLE)).items();
    }
  }

  private void assertAccepted(Response response, String tableUri) throws Exception {
    assertThat(status(response)).as(response.asString()).isEqualTo(202);
    String runId = body(response).getString("run_id");
    assertThat(runId).matches("[0-9a-f-]{36}");
    assertThat(body(response).getString("status")).isEqualTo("accepted");
    assertThat(body(response).getString("table_uri")).isEqualTo(tableUri);

    List<LoggedRequest> sent = invocations();
    assertThat(sent).hasSize(1);
    assertThat(sent.get(0).getHeader("X-Amz-Invocation-Type")).isEqualTo("Event");
    JsonNode handoff = JSON.readTree(sent.get(0).getBodyAsString()).get("handoff");
    assertThat(handoff.get("run_id").asText()).isEqualTo(runId);
    assertThat(handoff.get("inputs").get("table_uri").asText()).isEqualTo(tableUri);
    assertThat(handoff.get("inputs").get("demo_mode").asBoolean()).isFalse();
    assertThat(handoff.get("lease").get("owner").asText()).isEqualTo(runId);

    assertThat(leases()).hasSize(1);
    assertThat(leases().get(0).get("owner").s()).isEqualTo(runId);
    assertThat(leases().get(0).get("table_uri").s()).isEqualTo(tableUri);
  }

  @Test
  void httpApiV2_withTheKey_isAccepted_leasesTheTable_andHandsTheRunOverAsynchronously()
      throws Exception {
    assertAccepted(invoke(event("webhook-http-v2.json")), "s3://delta-lake-prod/tables/events");
  }

  @Test
  void restApiV1_withMixedCaseHeaders_isAccepted() throws Exception {
    assertAccepted(invoke(event("webhook-rest-v1.json")), "s3://delta-lake-prod/tables/orders");
  }

  @Test
  void base64Body_isDecoded_andAccepted() throws Exception {
    Response response = invoke(event("webhook-http-v2-base64.json"));

    assertAccepted(response, "s3://delta-lake-prod/tables/clicks");
    JsonNode handoff = JSON.readTree(invocations().get(0).getBodyAsString()).get("handoff");
    assertThat(handoff.get("inputs").get("partition_filter").asText())
        .isEqualTo("event_date >= '2026-11-01'");
  }

  @Test
  void hmacSignature_overTimestampAndBody_isAccepted() throws Exception {
    ObjectNode event = (ObjectNode) JSON.readTree(event("webhook-http-v2.json"));
    String timestamp = Long.toString(Instant.now().getEpochSecond());
    String body = event.get("body").asText();
    ObjectNode headers =
        JSON.createObjectNode()
            .put("content-type", "application/json")
            .put("x-delta-compactor-timestamp", timestamp)
            .put(
                "x-delta-compactor-signature",
                WebhookAuthenticator.signature(WebhookProfile.KEY, timestamp, body));
    event.set("headers", headers);

    assertAccepted(invoke(event.toString()), "s3://delta-lake-prod/tables/events");
  }

  @Test
  void hmacSignedRequest_replayedInsideTheWindow_is409Replayed_andStartsNothing() throws Exception {
    ObjectNode event = (ObjectNode) JSON.readTree(event("webhook-http-v2.json"));
    String timestamp = Long.toString(Instant.now().getEpochSecond());
    String body = event.get("body").asText();
    event.set(
        "headers",
        JSON.createObjectNode()
            .put("x-delta-compactor-timestamp", timestamp)
            .put(
                "x-delta-compactor-signature",
                WebhookAuthenticator.signature(WebhookProfile.KEY, timestamp, body)));
    assertAccepted(invoke(event.toString()), "s3://delta-lake-prod/tables/events");
    // The first run finished and gave its lease back: only the replay rule can refuse the copy.
    try (DynamoDbClient dynamo = DynoxideServer.shared().client()) {
      dynamo.deleteItem(
          b ->
              b.tableName(WebhookProfile.LEASE_TABLE)
                  .key(Map.of("lease_key", leases().get(0).get("lease_key"))));
    }

    Response replay = invoke(event.toString());

    assertThat(status(replay)).as(replay.asString()).isEqualTo(409);
    assertThat(body(replay).getString("error")).isEqualTo("replayed");
    assertThat(body(replay).getString("message"))
        .isEqualTo(
            "this signed request was already received; sign each request with a new timestamp");
    assertThat(invocations()).hasSize(1);
    assertThat(leases()).isEmpty();
    assertThat(items())
        .singleElement()
        .satisfies(i -> assertThat(i.get("lease_key").s()).startsWith("replay#"));
  }

  @Test
  void aBodyMarkedBase64ThatDoesNotDecode_is400_notAFunctionError() throws Exception {
    ObjectNode event = (ObjectNode) JSON.readTree(event("webhook-http-v2.json"));
    event.put("isBase64Encoded", true).put("body", "QQ=x");

    Response response = invoke(event.toString());

    assertThat(status(response)).isEqualTo(400);
    assertThat(body(response).getString("message"))
        .isEqualTo("the body is marked isBase64Encoded but is not valid base64");
    assertThat(invocations()).isEmpty();
  }

  @Test
  void aNullBody_is400NamingTheBody() throws Exception {
    ObjectNode event = (ObjectNode) JSON.readTree(event("webhook-http-v2.json"));
    event.put("body", "null");

    Response response = invoke(event.toString());

    assertThat(status(response)).isEqualTo(400);
    assertThat(body(response).getString("violations[0].field")).isEqualTo("body");
    assertThat(body(response).getString("violations[0].rule"))
        .isEqualTo("must be a JSON object of request inputs");
    assertThat(invocations()).isEmpty();
  }

  @Test
  void hmacSignature_olderThanFiveMinutes_isUnauthorized() throws Exception {
    ObjectNode event = (ObjectNode) JSON.readTree(event("webhook-http-v2.json"));
    String timestamp = Long.toString(Instant.now().minusSeconds(301).getEpochSecond());
    String body = event.get("body").asText();
    event.set(
        "headers",
        JSON.createObjectNode()
            .put("x-delta-compactor-timestamp", timestamp)
            .put(
                "x-delta-compactor-signature",
                WebhookAuthenticator.signature(WebhookProfile.KEY, timestamp, body)));

    Response response = invoke(event.toString());

    assertThat(status(response)).isEqualTo(401);
    assertThat(invocations()).isEmpty();
  }

  @Test
  void wrongKey_isUnauthorized_withNoDetail_andNothingHappens() throws Exception {
    Response response = invoke(event("webhook-wrong-key.json"));

    assertThat(status(response)).isEqualTo(401);
    assertThat(body(response).getMap(""))
        .containsExactly(Map.entry("error", "unauthorized"), Map.entry("message", "unauthorized"));
    assertThat(response.asString())
        .doesNotContain("not-the-key")
        .doesNotContain(WebhookProfile.KEY);
    assertThat(invocations()).isEmpty();
    assertThat(leases()).isEmpty();
  }

  @Test
  void badBody_isRejected_namingEveryInvalidField_andNothingHappens() throws Exception {
    Response response = invoke(event("webhook-bad-body.json"));

    assertThat(status(response)).isEqualTo(400);
    assertThat(body(response).getString("error")).isEqualTo("invalid_request");
    assertThat(body(response).getList("violations.field"))
        .containsExactlyInAnyOrder(
            "speed", "small_file_threshold_mb", "compaction_ratio_threshold_pct", "vacuum_mode");
    assertThat(body(response).getString("message"))
        .contains("small_file_threshold_mb=-5: must be > 0")
        .contains("compaction_ratio_threshold_pct=lots: must be a number")
        .contains("speed=max: is not a known input");
    assertThat(invocations()).isEmpty();
    assertThat(leases()).isEmpty();
  }

  @Test
  void retentionOf24Hours_isRefused_beforeAnythingHappens() throws Exception {
    Response response = invoke(event("webhook-retention-24h.json"));

    assertThat(status(response)).isEqualTo(400);
    assertThat(body(response).getString("message"))
        .contains("vacuum_retention_hours=24: must be >= 168");
    assertThat(invocations()).isEmpty();
    assertThat(leases()).isEmpty();
  }

  @Test
  void retentionOf167Hours_isRefused() throws Exception {
    ObjectNode event = (ObjectNode) JSON.readTree(event("webhook-http-v2.json"));
    event.put(
        "body",
        "{\"table_uri\": \"s3://delta-lake-prod/tables/events\", \"vacuum_retention_hours\": 167}");

    Response response = invoke(event.toString());

    assertThat(status(response)).isEqualTo(400);
    assertThat(body(response).getString("message"))
        .contains("vacuum_retention_hours=167: must be >= 168");
    assertThat(invocations()).isEmpty();
  }

  @Test
  void tableOutsideTheAllowlist_isForbidden() throws Exception {
    Response response = invoke(event("webhook-table-not-allowed.json"));

    assertThat(status(response)).isEqualTo(403);
    assertThat(body(response).getString("message"))
        .contains("s3://someone-elses-bucket/tables/payroll")
        .contains("is not under an allowed table prefix (s3://delta-lake-prod/tables)");
    assertThat(invocations()).isEmpty();
    assertThat(leases()).isEmpty();
  }

  @Test
  void twoWebhooksForOneTableAtOnce_oneIsAccepted_theOtherToldWhoHoldsTheLease() throws Exception {
    String event = event("webhook-http-v2.json");
    ExecutorService pool = Executors.newFixedThreadPool(2);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<Response>> calls = new ArrayList<>();
    try {
      for (int i = 0; i < 2; i++) {
        Callable<Response> call =
            () -> {
              start.await();
              return invoke(event);
            };
        calls.add(pool.submit(call));
      }
      start.countDown();
      List<Response> responses = new ArrayList<>();
      for (Future<Response> f : calls) {
        responses.add(f.get());
      }
      Response accepted =
          responses.stream().filter(r -> status(r) == 202).findFirst().orElseThrow();
      Response conflict =
          responses.stream().filter(r -> status(r) == 409).findFirst().orElseThrow();
      assertThat(body(conflict).getString("error")).isEqualTo("conflict");
      assertThat(body(conflict).getString("held_by_run"))
          .isEqualTo(body(accepted).getString("run_id"));
      assertThat(body(conflict).getString("message")).contains("holds the table's lease until");
      assertThat(invocations()).hasSize(1);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void failedHandOff_answers502_andReleasesTheLease() throws Exception {
    lambda.register(
        post(urlEqualTo(INVOKE_PATH))
            .willReturn(
                aResponse()
                    .withStatus(400)
                    .withHeader("x-amzn-ErrorType", "InvalidRequestContentException")
                    .withBody("{\"message\": \"broken\"}")));

    Response response = invoke(event("webhook-http-v2.json"));

    assertThat(status(response)).isEqualTo(502);
    assertThat(body(response).getString("error")).isEqualTo("launch_failed");
    assertThat(leases()).isEmpty();
    lambda.verifyThat(
        postRequestedFor(urlEqualTo(INVOKE_PATH))
            .withHeader("X-Amz-Invocation-Type", equalTo("Event")));
  }

  @Test
  void getRequest_isNotAllowed() throws Exception {
    ObjectNode event = (ObjectNode) JSON.readTree(event("webhook-http-v2.json"));
    ((ObjectNode) event.get("requestContext").get("http")).put("method", "GET");

    assertThat(status(invoke(event.toString()))).isEqualTo(405);
    assertThat(invocations()).isEmpty();
  }
}
