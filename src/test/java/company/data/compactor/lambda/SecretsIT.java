package company.data.compactor.lambda;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.tomakehurst.wiremock.client.WireMock;
import company.data.compactor.error.CompactorException;
import company.data.compactor.testing.AwsStandIns;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Secrets from Secrets Manager's GetSecretValue over HTTP (WireMock stands in: there is no local
 * Secrets Manager server here), and from the environment without it.
 */
class SecretsIT {

  private static final String ARN =
      "arn:aws:secretsmanager:us-east-1:123456789012:secret:delta-compactor-AbCdEf";
  private final WireMock aws = AwsStandIns.client();

  private static Map<String, String> environment() {
    return Map.of(
        "COMPACTOR_SECRET_ID", ARN,
        "AWS_ENDPOINT_URL_SECRETS_MANAGER", AwsStandIns.endpoint(),
        "AWS_REGION", "us-east-1",
        "AWS_ACCESS_KEY_ID", "test",
        "AWS_SECRET_ACCESS_KEY", "test",
        "DELTA_COMPACTOR_WEBHOOK_KEY", "from-the-environment-must-be-ignored");
  }

  private void secretString(String json) {
    aws.register(
        post(urlEqualTo("/"))
            .withHeader("X-Amz-Target", equalTo("secretsmanager.GetSecretValue"))
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withHeader("Content-Type", "application/x-amz-json-1.1")
                    .withBody(
                        "{\"ARN\": \""
                            + ARN
                            + "\", \"Name\": \"delta-compactor\", \"SecretString\": "
                            + new com.fasterxml.jackson.databind.ObjectMapper().valueToTree(json)
                            + "}")));
  }

  @BeforeEach
  void reset() {
    aws.resetMappings();
    aws.resetRequests();
  }

  @Test
  void withASecretId_valuesComeFromSecretsManager_fetchedOnceWhileCached() {
    secretString(
        "{\"DELTA_COMPACTOR_WEBHOOK_KEY\": \"from-secrets-manager\", \"SLACK_WEBHOOK_URL\": \"https://hooks.slack.test/T/B/X\"}");
    Secrets secrets =
        new Secrets(
            environment(), Clock.fixed(Instant.parse("2026-11-30T02:00:00Z"), ZoneOffset.UTC));

    assertThat(secrets.get(Secrets.WEBHOOK_KEY)).contains("from-secrets-manager");
    assertThat(secrets.get(Secrets.SLACK_WEBHOOK_URL)).contains("https://hooks.slack.test/T/B/X");
    assertThat(secrets.get("NOT_THERE")).isEmpty();
    aws.verifyThat(
        1,
        postRequestedFor(urlEqualTo("/"))
            .withRequestBody(equalTo("{\"SecretId\":\"" + ARN + "\"}")));
  }

  @Test
  void aSecretThatIsNotAJsonObject_fails_withoutShowingItsValue() {
    secretString("plain-text-secret-value");
    Secrets secrets = new Secrets(environment(), Clock.systemUTC());

    assertThatThrownBy(() -> secrets.get(Secrets.WEBHOOK_KEY))
        .isInstanceOf(CompactorException.class)
        .hasMessageContaining("reading secret " + ARN)
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("plain-text-secret-value"));
  }

  @Test
  void withoutASecretId_valuesComeFromTheEnvironment() {
    Secrets secrets =
        new Secrets(Map.of("DELTA_COMPACTOR_WEBHOOK_KEY", "local-key"), Clock.systemUTC());

    assertThat(secrets.get(Secrets.WEBHOOK_KEY)).contains("local-key");
    assertThat(secrets.get(Secrets.SLACK_WEBHOOK_URL)).isEmpty();
  }
}
