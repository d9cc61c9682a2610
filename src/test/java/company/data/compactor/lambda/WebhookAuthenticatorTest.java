package company.data.compactor.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WebhookAuthenticatorTest {

  private static final String KEY = "s3cr3t-key";
  private static final Instant NOW = Instant.parse("2026-11-30T02:00:00Z");
  private static final String BODY = "{\"table_uri\": \"s3://b/t\"}";

  /** Records every comparison, then compares as the JDK does. */
  private static final class RecordingEquality
      implements WebhookAuthenticator.ConstantTimeEquality {
    final List<int[]> lengths = new ArrayList<>();

    @Override
    public boolean equal(byte[] a, byte[] b) {
      lengths.add(new int[] {a.length, b.length});
      return WebhookAuthenticator.ConstantTimeEquality.JDK.equal(a, b);
    }
  }

  private final RecordingEquality equality = new RecordingEquality();
  private final WebhookAuthenticator authenticator =
      new WebhookAuthenticator(KEY, Clock.fixed(NOW, ZoneOffset.UTC), equality);

  private static ApiGatewayRequest request(Map<String, String> headers) {
    return new ApiGatewayRequest("2.0", "POST", headers, BODY);
  }

  private static String ts(Instant instant) {
    return Long.toString(instant.getEpochSecond());
  }

  @Test
  void sharedKey_right_isAccepted_wrongOrMissing_isNot() {
    assertThat(authenticator.authenticates(request(Map.of("x-delta-compactor-key", KEY)))).isTrue();
    assertThat(authenticator.authenticates(request(Map.of("x-delta-compactor-key", KEY + "x"))))
        .isFalse();
    assertThat(authenticator.authenticates(request(Map.of("x-delta-compactor-key", "")))).isFalse();
    assertThat(authenticator.authenticates(request(Map.of()))).isFalse();
  }

  @Test
  void sharedKey_isComparedInConstantTime_asEqualLengthDigests_whateverItsLength() {
    authenticator.authenticates(request(Map.of("x-delta-compactor-key", "k")));
    authenticator.authenticates(request(Map.of("x-delta-compactor-key", KEY.repeat(40))));

    assertThat(equality.lengths).hasSize(2).allSatisfy(l -> assertThat(l).containsExactly(32, 32));
  }

  @Test
  void hmac_overTimestampAndBody_withinFiveMinutes_isAccepted() {
    String timestamp = ts(NOW.minusSeconds(299));
    Map<String, String> headers =
        Map.of(
            "x-delta-compactor-timestamp",
            timestamp,
            "x-delta-compactor-signature",
            WebhookAuthenticator.signature(KEY, timestamp, BODY));

    assertThat(authenticator.authenticates(request(headers))).isTrue();
    assertThat(equality.lengths).hasSize(1).allSatisfy(l -> assertThat(l).containsExactly(32, 32));
  }

  @Test
  void hmac_isRefused_whenStale_fromTheFuture_forAnotherBody_orAnotherKey() {
    String stale = ts(NOW.minusSeconds(301));
    String future = ts(NOW.plusSeconds(301));
    String fresh = ts(NOW);

    assertThat(
            authenticator.authenticates(
                request(
                    Map.of(
                        "x-delta-compactor-timestamp",
                        stale,
                        "x-delta-compactor-signature",
                        WebhookAuthenticator.signature(KEY, stale, BODY)))))
        .isFalse();
    assertThat(
            authenticator.authenticates(
                request(
                    Map.of(
                        "x-delta-compactor-timestamp",
                        future,
                        "x-delta-compactor-signature",
                        WebhookAuthenticator.signature(KEY, future, BODY)))))
        .isFalse();
    assertThat(
            authenticator.authenticates(
                request(
                    Map.of(
                        "x-delta-compactor-timestamp",
                        fresh,
                        "x-delta-compactor-signature",
                        WebhookAuthenticator.signature(KEY, fresh, BODY + " ")))))
        .isFalse();
    assertThat(
            authenticator.authenticates(
                request(
                    Map.of(
                        "x-delta-compactor-timestamp",
                        fresh,
                        "x-delta-compactor-signature",
                        WebhookAuthenticator.signature("other", fresh, BODY)))))
        .isFalse();
  }

  @Test
  void hmac_malformedSignature_isRefused_afterTheSameConstantTimeComparison() {
    String fresh = ts(NOW);

    assertThat(
            authenticator.authenticates(
                request(
                    Map.of(
                        "x-delta-compactor-timestamp",
                        fresh,
                        "x-delta-compactor-signature",
                        "sha256=zz"))))
        .isFalse();
    assertThat(
            authenticator.authenticates(
                request(
                    Map.of(
                        "x-delta-compactor-timestamp",
                        "yesterday",
                        "x-delta-compactor-signature",
                        WebhookAuthenticator.signature(KEY, fresh, BODY)))))
        .isFalse();

    assertThat(equality.lengths).hasSize(1).allSatisfy(l -> assertThat(l).containsExactly(32, 32));
  }

  @Test
  void hmac_timestampsPastInstantsRange_areRefused_notThrown() {
    for (String timestamp :
        List.of("9223372036854775807", "-9223372036854775808", "31556889864403200", "1e9", "")) {
      Map<String, String> headers =
          Map.of(
              "x-delta-compactor-timestamp",
              timestamp,
              "x-delta-compactor-signature",
              WebhookAuthenticator.signature(KEY, timestamp, BODY));

      assertThat(authenticator.authenticates(request(headers))).as(timestamp).isFalse();
    }
  }

  @Test
  void hmac_proof_namesTheSignature_forReplayChecks_untilItGoesStale() {
    String timestamp = ts(NOW.minusSeconds(60));
    Map<String, String> headers =
        Map.of(
            "x-delta-compactor-timestamp",
            timestamp,
            "x-delta-compactor-signature",
            WebhookAuthenticator.signature(KEY, timestamp, BODY));

    WebhookAuthenticator.Proof proof = authenticator.verify(request(headers)).orElseThrow();
    WebhookAuthenticator.Proof again = authenticator.verify(request(headers)).orElseThrow();

    assertThat(proof.replayDigest()).isPresent().isEqualTo(again.replayDigest());
    assertThat(proof.replayDigest().get()).matches("[0-9a-f]{64}");
    assertThat(proof.validUntil()).contains(NOW.minusSeconds(60).plus(WebhookAuthenticator.WINDOW));
    assertThat(
            authenticator
                .verify(request(Map.of("x-delta-compactor-key", KEY)))
                .orElseThrow()
                .replayDigest())
        .isEmpty();
  }
}
