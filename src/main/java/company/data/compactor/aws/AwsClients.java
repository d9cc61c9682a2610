package company.data.compactor.aws;

import company.data.compactor.error.Errors;
import company.data.compactor.error.Violation;
import company.data.compactor.model.RetryPolicy;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.retries.api.BackoffStrategy;

/**
 * The standard AWS settings every client of the compactor takes from one environment map (usually
 * {@link System#getenv()}): credentials from {@code AWS_ACCESS_KEY_ID}/{@code
 * AWS_SECRET_ACCESS_KEY}(/{@code AWS_SESSION_TOKEN}), else the default provider chain (profiles,
 * the Lambda role); region from {@code AWS_REGION} or {@code AWS_DEFAULT_REGION}, else us-east-1;
 * endpoint from {@code AWS_ENDPOINT_URL_<SERVICE>} or {@code AWS_ENDPOINT_URL} (local servers,
 * compatible stores). HTTP on the JDK's URLConnection.
 *
 * <p>Retries and timeouts follow {@link #retryPolicy}: the SDK's standard retry conditions
 * (throttling, 5xx, connection errors, timeouts) with exponential backoff and full jitter, no retry
 * quota (a burst of 503s is retried like a single one), a per-attempt and a per-call timeout.
 */
public final class AwsClients {

  private AwsClients() {}

  /**
   * Applies the settings to {@code builder} for the service whose endpoint variable suffix is
   * {@code service} (e.g. {@code S3}, {@code DYNAMODB}, {@code LAMBDA}, {@code SECRETS_MANAGER}).
   */
  public static <B extends AwsClientBuilder<B, ?> & AwsSyncClientBuilder<B, ?>> B configure(
      B builder, Map<String, String> environment, String service) {
    return configure(builder, environment, service, retryPolicy(environment));
  }

  /** As {@link #configure(AwsClientBuilder, Map, String)} with an explicit retry policy. */
  public static <B extends AwsClientBuilder<B, ?> & AwsSyncClientBuilder<B, ?>> B configure(
      B builder, Map<String, String> environment, String service, RetryPolicy policy) {
    builder.httpClient(
        UrlConnectionHttpClient.builder()
            .connectionTimeout(shorter(policy.attemptTimeout(), Duration.ofSeconds(10)))
            .socketTimeout(policy.attemptTimeout())
            .build());
    builder.overrideConfiguration(
        c ->
            c.retryStrategy(
                    AwsRetryStrategy.standardRetryStrategy().toBuilder()
                        .maxAttempts(policy.maxAttempts())
                        .backoffStrategy(
                            BackoffStrategy.exponentialDelay(
                                nonZero(policy.baseDelay()), nonZero(policy.maxBackoff())))
                        .throttlingBackoffStrategy(
                            BackoffStrategy.exponentialDelay(
                                nonZero(policy.baseDelay()), nonZero(policy.maxBackoff())))
                        .circuitBreakerEnabled(false)
                        .build())
                .apiCallAttemptTimeout(policy.attemptTimeout())
                .apiCallTimeout(policy.callTimeout()));
    String accessKey = environment.get("AWS_ACCESS_KEY_ID");
    String secretKey = environment.get("AWS_SECRET_ACCESS_KEY");
    if (accessKey != null && secretKey != null) {
      String token = environment.get("AWS_SESSION_TOKEN");
      builder.credentialsProvider(
          StaticCredentialsProvider.create(
              token == null
                  ? AwsBasicCredentials.create(accessKey, secretKey)
                  : AwsSessionCredentials.create(accessKey, secretKey, token)));
    }
    builder.region(region(environment));
    endpoint(environment, service).ifPresent(builder::endpointOverride);
    return builder;
  }

  /**
   * Variables of the AWS retry and timeout policy, with their defaults in {@link
   * RetryPolicy#defaults()}.
   */
  public static final String MAX_ATTEMPTS = "COMPACTOR_AWS_MAX_ATTEMPTS";

  public static final String BASE_DELAY_MS = "COMPACTOR_AWS_BASE_DELAY_MS";
  public static final String MAX_BACKOFF_MS = "COMPACTOR_AWS_MAX_BACKOFF_MS";
  public static final String ATTEMPT_TIMEOUT_MS = "COMPACTOR_AWS_ATTEMPT_TIMEOUT_MS";
  public static final String CALL_TIMEOUT_MS = "COMPACTOR_AWS_CALL_TIMEOUT_MS";

  /**
   * The retry and timeout policy of every AWS call (S3, DynamoDB, Secrets Manager, Lambda) from
   * {@code COMPACTOR_AWS_MAX_ATTEMPTS} (default 5), {@code COMPACTOR_AWS_BASE_DELAY_MS} (100),
   * {@code COMPACTOR_AWS_MAX_BACKOFF_MS} (5,000), {@code COMPACTOR_AWS_ATTEMPT_TIMEOUT_MS} (30,000)
   * and {@code COMPACTOR_AWS_CALL_TIMEOUT_MS} (120,000).
   *
   * @throws company.data.compactor.error.CompactorException INVALID_REQUEST naming a malformed
   *     variable
   */
  public static RetryPolicy retryPolicy(Map<String, String> environment) {
    RetryPolicy d = RetryPolicy.defaults();
    List<Violation> violations = new ArrayList<>();
    int attempts = (int) whole(environment, MAX_ATTEMPTS, d.maxAttempts(), 1, violations);
    long base = whole(environment, BASE_DELAY_MS, d.baseDelay().toMillis(), 0, violations);
    long backoff = whole(environment, MAX_BACKOFF_MS, d.maxBackoff().toMillis(), 0, violations);
    long attempt =
        whole(environment, ATTEMPT_TIMEOUT_MS, d.attemptTimeout().toMillis(), 1, violations);
    long call = whole(environment, CALL_TIMEOUT_MS, d.callTimeout().toMillis(), 1, violations);
    if (!violations.isEmpty()) {
      throw Errors.invalidRequest(violations);
    }
    return new RetryPolicy(
        attempts,
        Duration.ofMillis(base),
        Duration.ofMillis(backoff),
        Duration.ofMillis(attempt),
        Duration.ofMillis(call));
  }

  private static long whole(
      Map<String, String> environment,
      String variable,
      long fallback,
      long min,
      List<Violation> violations) {
    String raw = environment.get(variable);
    if (raw == null || raw.isBlank()) {
      return fallback;
    }
    try {
      long value = Long.parseLong(raw.strip());
      if (value >= min) {
        return value;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    violations.add(new Violation(variable, raw, "must be a whole number >= " + min));
    return fallback;
  }

  private static Duration nonZero(Duration d) {
    return d.isZero() ? Duration.ofMillis(1) : d;
  }

  private static Duration shorter(Duration a, Duration b) {
    return a.compareTo(b) < 0 ? a : b;
  }

  /** {@code AWS_REGION}, else {@code AWS_DEFAULT_REGION}, else us-east-1. */
  public static Region region(Map<String, String> environment) {
    return Optional.ofNullable(environment.get("AWS_REGION"))
        .or(() -> Optional.ofNullable(environment.get("AWS_DEFAULT_REGION")))
        .filter(r -> !r.isBlank())
        .map(r -> Region.of(r.strip()))
        .orElse(Region.US_EAST_1);
  }

  /** {@code AWS_ENDPOINT_URL_<SERVICE>}, else {@code AWS_ENDPOINT_URL}, when set. */
  public static Optional<URI> endpoint(Map<String, String> environment, String service) {
    return Optional.ofNullable(
            environment.get("AWS_ENDPOINT_URL_" + service.toUpperCase(Locale.ROOT)))
        .or(() -> Optional.ofNullable(environment.get("AWS_ENDPOINT_URL")))
        .filter(e -> !e.isBlank())
        .map(e -> URI.create(e.strip()));
  }
}
