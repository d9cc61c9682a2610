package company.data.compactor.lambda;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.aws.AwsClients;
import company.data.compactor.error.Errors;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/**
 * The two secrets ({@value #WEBHOOK_KEY}, {@value #SLACK_WEBHOOK_URL}). In AWS, {@value
 * #SECRET_ID_VARIABLE} names a Secrets Manager secret whose string is a JSON object holding them by
 * those names; it is fetched on first use and kept for {@link #CACHE_FOR} (rotation is picked up
 * after that). Without it (locally) they come from the environment variables of the same names.
 * Values are never logged.
 */
final class Secrets {

  static final String WEBHOOK_KEY = "DELTA_COMPACTOR_WEBHOOK_KEY";
  static final String SLACK_WEBHOOK_URL = "SLACK_WEBHOOK_URL";
  static final String SECRET_ID_VARIABLE = "COMPACTOR_SECRET_ID";
  static final Duration CACHE_FOR = Duration.ofMinutes(5);

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Map<String, String> environment;
  private final Clock clock;
  private JsonNode cached;
  private Instant cachedAt;

  Secrets(Map<String, String> environment, Clock clock) {
    this.environment = environment;
    this.clock = clock;
  }

  /**
   * The secret called {@code name}, empty when not configured.
   *
   * @throws company.data.compactor.error.CompactorException OPERATION_FAILED when Secrets Manager
   *     cannot be read or the secret is not a JSON object (the message never holds the value)
   */
  synchronized Optional<String> get(String name) {
    String secretId = environment.get(SECRET_ID_VARIABLE);
    if (secretId == null || secretId.isBlank()) {
      return Optional.ofNullable(environment.get(name)).filter(v -> !v.isBlank());
    }
    Instant now = clock.instant();
    if (cached == null || cachedAt.plus(CACHE_FOR).isBefore(now)) {
      cached = fetch(secretId.strip());
      cachedAt = now;
    }
    JsonNode value = cached.get(name);
    return value == null || !value.isTextual() || value.asText().isBlank()
        ? Optional.empty()
        : Optional.of(value.asText());
  }

  private JsonNode fetch(String secretId) {
    try (SecretsManagerClient client =
        AwsClients.configure(SecretsManagerClient.builder(), environment, "SECRETS_MANAGER")
            .build()) {
      String text = client.getSecretValue(b -> b.secretId(secretId)).secretString();
      JsonNode node = text == null ? null : JSON.readTree(text);
      if (node == null || !node.isObject()) {
        throw Errors.operationFailed(
            "reading secret " + secretId,
            new IllegalStateException("the secret string is not a JSON object of named values"));
      }
      return node;
    } catch (SdkException | IOException e) {
      throw Errors.operationFailed(
          "reading secret " + secretId + " from Secrets Manager",
          new IllegalStateException(e.getClass().getSimpleName()));
    }
  }
}
