package company.data.compactor.lambda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import company.data.compactor.lease.FileLeaseStore;
import company.data.compactor.lease.FileReplayLedger;
import company.data.compactor.lease.Leases;
import company.data.compactor.testing.RefusedInputs;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The webhook handler without Lambda or AWS: adversarial bodies, table URIs and signatures are
 * answered with a status and a reason, never a crash, and nothing is leased or launched.
 */
class WebhookHandlerTest {

  private static final String KEY = "handler-test-key";
  private static final Instant NOW = Instant.parse("2026-11-30T02:00:00Z");
  private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

  @TempDir Path work;

  private final List<Handoff> launched = new ArrayList<>();
  private final AtomicInteger runs = new AtomicInteger();

  private WebhookHandler handler(Map<String, String> environment) {
    return new WebhookHandler(
        new WebhookHandler.Parts(
            new WebhookAuthenticator(KEY, CLOCK, WebhookAuthenticator.ConstantTimeEquality.JDK),
            environment,
            work,
            new Leases(new FileLeaseStore(work.resolve("leases")), CLOCK, Duration.ofMinutes(20)),
            new FileReplayLedger(work.resolve("replays")),
            launched::add,
            CLOCK,
            () -> "run-" + runs.incrementAndGet()));
  }

  private WebhookHandler handler() {
    return handler(Map.of("COMPACTOR_ALLOWED_TABLE_PREFIXES", "s3://bkt/tables"));
  }

  private static ApiGatewayRequest keyed(String body) {
    return new ApiGatewayRequest("2.0", "POST", Map.of("x-delta-compactor-key", KEY), body);
  }

  private void assertNothingStarted() {
    assertThat(launched).isEmpty();
    assertThat(work.resolve("leases")).doesNotExist();
  }

  @Test
  void aTableUriClimbingOutOfTheAllowedPrefix_is400_namingTheRule_andNothingStarts() {
    HttpResponse response =
        handler().handle(keyed("{\"table_uri\": \"s3://bkt/tables/../secret/t\"}"));

    assertThat(response.status()).isEqualTo(400);
    assertThat(response.body().get("error")).isEqualTo("invalid_request");
    assertThat(response.body().get("violations"))
        .isEqualTo(
            List.of(
                Map.of(
                    "field", "table_uri",
                    "value", "s3://bkt/tables/../secret/t",
                    "rule",
                        "must not contain . or .. path segments; they are refused, never resolved: name the table by"
                            + " its canonical path")));
    assertNothingStarted();
  }

  @Test
  void percentEncodedDotSegments_backslashesAndEmptySegments_are400() {
    for (String uri :
        List.of(
            "s3://bkt/tables/%2E%2E/secret/t",
            "s3://bkt/tables\\\\..\\\\t", "s3://bkt/tables//t")) {
      HttpResponse response = handler().handle(keyed("{\"table_uri\": \"" + uri + "\"}"));

      assertThat(response.status()).as(uri).isEqualTo(400);
    }
    assertNothingStarted();
  }

  @Test
  void anAllowedCanonicalTable_isAccepted() {
    HttpResponse response = handler().handle(keyed("{\"table_uri\": \"s3://bkt/tables/events/\"}"));

    assertThat(response.status()).isEqualTo(202);
    assertThat(response.body().get("table_uri")).isEqualTo("s3://bkt/tables/events");
    assertThat(launched).hasSize(1);
  }

  @Test
  void anAllowlistPrefixWithDotDot_is500NotConfigured_andNothingStarts() {
    HttpResponse response =
        handler(Map.of("COMPACTOR_ALLOWED_TABLE_PREFIXES", "s3://bkt/tables/.."))
            .handle(keyed("{\"table_uri\": \"s3://bkt/tables/t\"}"));

    assertThat(response.status()).isEqualTo(500);
    assertThat(response.body())
        .isEqualTo(
            Map.of(
                "error",
                "not_configured",
                "message",
                "the webhook is not configured correctly; nothing was started"));
    assertNothingStarted();
  }

  @Test
  void bodiesThatAreNotJsonObjects_are400_withAViolation() {
    for (String body :
        List.of(
            "null",
            "[]",
            "\"x\"",
            "123",
            "true",
            "{} {}",
            "[".repeat(5000),
            "{\"table_uri\":" + "[".repeat(3000) + "]".repeat(3000) + "}")) {
      HttpResponse response = handler().handle(keyed(body));

      assertThat(response.status()).as(body).isEqualTo(400);
      assertThat(response.body().get("error")).as(body).isEqualTo("invalid_request");
      assertThat(response.body().get("violations")).as(body).asList().hasSize(1);
    }
    HttpResponse nullBody = handler().handle(keyed("null"));
    assertThat(nullBody.body().get("violations"))
        .isEqualTo(
            List.of(
                Map.of(
                    "field",
                    "body",
                    "value",
                    "null",
                    "rule",
                    "must be a JSON object of request inputs")));
    assertNothingStarted();
  }

  @Test
  void nonStringTableUri_andHugeNumbers_are400_namingEachField() {
    HttpResponse response =
        handler()
            .handle(
                keyed(
                    "{\"table_uri\": {\"a\": 1}, \"vacuum_retention_hours\": "
                        + "1"
                        + "0".repeat(400)
                        + ", \"small_file_threshold_mb\": 1e400, \"max_bytes_per_run\": 99999999999999999999}"));

    assertThat(response.status()).isEqualTo(400);
    assertThat(
            ((List<?>) response.body().get("violations"))
                .stream().map(v -> String.valueOf(((Map<?, ?>) v).get("field"))).toList())
        .containsExactly(
            "table_uri", "small_file_threshold_mb", "vacuum_retention_hours", "max_bytes_per_run");
    assertNothingStarted();
  }

  @Test
  void aNestedPartitionFilter_is400_namingTheLimit() {
    HttpResponse response =
        handler()
            .handle(
                keyed(
                    "{\"table_uri\": \"s3://bkt/tables/t\", \"partition_filter\": \""
                        + "(".repeat(3000)
                        + "p = 1"
                        + ")".repeat(3000)
                        + "\"}"));

    assertThat(response.status()).isEqualTo(400);
    assertThat(response.body().get("violations"))
        .asList()
        .singleElement()
        .extracting(v -> ((Map<?, ?>) v).get("rule"))
        .isEqualTo("must nest parentheses at most 32 deep (found 3000)");
    assertNothingStarted();
  }

  @Test
  void anHmacTimestampOfLongMax_is401_likeAnyBadSignature() {
    for (String timestamp :
        List.of("9223372036854775807", "-9223372036854775808", "31556889864403200")) {
      String body = "{\"table_uri\": \"s3://bkt/tables/t\"}";
      ApiGatewayRequest request =
          new ApiGatewayRequest(
              "2.0",
              "POST",
              Map.of(
                  "x-delta-compactor-timestamp",
                  timestamp,
                  "x-delta-compactor-signature",
                  WebhookAuthenticator.signature(KEY, timestamp, body)),
              body);

      HttpResponse response = handler().handle(request);

      assertThat(response.status()).as(timestamp).isEqualTo(401);
    }
    assertNothingStarted();
  }

  @Test
  void invalidBase64_orMissingHeaders_areAnsweredNotThrown() {
    Map<String, Object> event = new HashMap<>();
    event.put("version", "2.0");
    event.put("requestContext", Map.of("http", Map.of("method", "POST")));
    event.put("isBase64Encoded", true);
    event.put("body", "QQ=x");

    assertThatThrownBy(() -> ApiGatewayRequest.from(event))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the body is marked isBase64Encoded but is not valid base64");

    event.put("isBase64Encoded", false);
    event.put("headers", "not a map");
    HttpResponse response = handler().handle(ApiGatewayRequest.from(event).orElseThrow());
    assertThat(response.status()).isEqualTo(401);
    assertNothingStarted();
  }

  private static ApiGatewayRequest signed(String timestamp, String body) {
    return new ApiGatewayRequest(
        "2.0",
        "POST",
        Map.of(
            "x-delta-compactor-timestamp",
            timestamp,
            "x-delta-compactor-signature",
            WebhookAuthenticator.signature(KEY, timestamp, body)),
        body);
  }

  @Test
  void aSignedRequestDeliveredTwice_isAcceptedOnce_thenAnswered409Replayed() {
    String timestamp = Long.toString(NOW.getEpochSecond());
    String body = "{\"table_uri\": \"s3://bkt/tables/t\"}";
    WebhookHandler handler = handler();

    HttpResponse first = handler.handle(signed(timestamp, body));
    HttpResponse replay = handler.handle(signed(timestamp, body));
    HttpResponse resigned = handler.handle(signed(Long.toString(NOW.getEpochSecond() - 1), body));

    assertThat(first.status()).isEqualTo(202);
    assertThat(replay.status()).isEqualTo(409);
    assertThat(replay.body())
        .isEqualTo(
            Map.of(
                "error",
                "replayed",
                "message",
                "this signed request was already received; sign each request with a new timestamp"));
    assertThat(resigned.status())
        .as("a new signature is a new request (here: the table is leased)")
        .isEqualTo(409);
    assertThat(resigned.body().get("error")).isEqualTo("conflict");
    assertThat(launched).hasSize(1);
  }

  @Test
  void theSharedKeyScheme_hasNoReplayRecord() {
    String body = "{\"table_uri\": \"s3://bkt/tables/t\"}";

    assertThat(handler().handle(keyed(body)).status()).isEqualTo(202);
    assertThat(work.resolve("replays")).doesNotExist();
  }

  @Test
  void theSharedRefusedInputs_are400_withTheAdmissionMessageEveryEntryPointGives()
      throws Exception {
    HttpResponse response =
        handler()
            .handle(
                keyed(
                    new com.fasterxml.jackson.databind.ObjectMapper()
                        .writeValueAsString(RefusedInputs.INPUTS)));

    assertThat(response.status()).isEqualTo(400);
    assertThat(response.body().get("message")).isEqualTo(RefusedInputs.message());
    assertNothingStarted();
  }
}
