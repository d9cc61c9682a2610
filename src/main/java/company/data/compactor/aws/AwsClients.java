package company.data.compactor.aws;

import java.net.URI;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;

/**
 * The standard AWS settings every client of the compactor takes from one environment map (usually
 * {@link System#getenv()}): credentials from {@code AWS_ACCESS_KEY_ID}/{@code
 * AWS_SECRET_ACCESS_KEY}(/{@code AWS_SESSION_TOKEN}), else the default provider chain (profiles,
 * the Lambda role); region from {@code AWS_REGION} or {@code AWS_DEFAULT_REGION}, else us-east-1;
 * endpoint from {@code AWS_ENDPOINT_URL_<SERVICE>} or {@code AWS_ENDPOINT_URL} (local servers,
 * compatible stores). HTTP on the JDK's URLConnection; the SDK's adaptive retries.
 */
public final class AwsClients {

  private AwsClients() {}

  /**
   * Applies the settings to {@code builder} for the service whose endpoint variable suffix is
   * {@code service} (e.g. {@code S3}, {@code DYNAMODB}, {@code LAMBDA}, {@code SECRETS_MANAGER}).
   */
  public static <B extends AwsClientBuilder<B, ?> & AwsSyncClientBuilder<B, ?>> B configure(
      B builder, Map<String, String> environment, String service) {
    builder.httpClient(UrlConnectionHttpClient.create());
    builder.overrideConfiguration(c -> c.retryStrategy(RetryMode.ADAPTIVE_V2));
    String accessKey = environment.get("AWS_ACCESS_KEY_ID");
    String secretKey = environment.get("AWS_SECRET_ACCESS_KEY");
    if (accessKey != null && secretKey != null) {
      String token = environment.get("AWS_SESSION_TOKEN");
      builder.credentialsProvider(StaticCredentialsProvider.create(
          token == null
              ? AwsBasicCredentials.create(accessKey, secretKey)
              : AwsSessionCredentials.create(accessKey, secretKey, token)));
    }
    builder.region(region(environment));
    endpoint(environment, service).ifPresent(builder::endpointOverride);
    return builder;
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
    return Optional.ofNullable(environment.get("AWS_ENDPOINT_URL_" + service.toUpperCase(Locale.ROOT)))
        .or(() -> Optional.ofNullable(environment.get("AWS_ENDPOINT_URL")))
        .filter(e -> !e.isBlank())
        .map(e -> URI.create(e.strip()));
  }
}
