package company.data.compactor.storage.s3;

import java.net.URI;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Builds the S3 client from the standard AWS settings: credentials from {@code
 * AWS_ACCESS_KEY_ID}/{@code AWS_SECRET_ACCESS_KEY}(/{@code AWS_SESSION_TOKEN}) in the given
 * environment, else the default provider chain (profiles, Lambda role); region from {@code
 * AWS_REGION} or {@code AWS_DEFAULT_REGION}, else us-east-1; endpoint from
 * {@code AWS_ENDPOINT_URL_S3} or {@code AWS_ENDPOINT_URL} (S3-compatible stores); path-style
 * addressing when {@code COMPACTOR_S3_PATH_STYLE=true}. Retries use the SDK's adaptive mode
 * (backoff and client-side rate limiting on throttling).
 */
public final class S3Clients {

  private S3Clients() {}

  /** A client configured from {@code environment} (usually {@link System#getenv()}). */
  public static S3Client fromEnvironment(Map<String, String> environment) {
    var builder =
        S3Client.builder()
            .httpClient(UrlConnectionHttpClient.create())
            .overrideConfiguration(c -> c.retryStrategy(RetryMode.ADAPTIVE_V2))
            // Trailing checksums are optional for these operations; S3-compatible stores often
            // reject the aws-chunked encoding they need.
            .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
            .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
            .forcePathStyle(Boolean.parseBoolean(environment.getOrDefault("COMPACTOR_S3_PATH_STYLE", "false")));
    String accessKey = environment.get("AWS_ACCESS_KEY_ID");
    String secretKey = environment.get("AWS_SECRET_ACCESS_KEY");
    if (accessKey != null && secretKey != null) {
      String token = environment.get("AWS_SESSION_TOKEN");
      builder.credentialsProvider(StaticCredentialsProvider.create(
          token == null ? AwsBasicCredentials.create(accessKey, secretKey) : AwsSessionCredentials.create(accessKey, secretKey, token)));
    }
    Optional.ofNullable(environment.get("AWS_REGION"))
        .or(() -> Optional.ofNullable(environment.get("AWS_DEFAULT_REGION")))
        .filter(r -> !r.isBlank())
        .ifPresentOrElse(r -> builder.region(Region.of(r)), () -> builder.region(Region.US_EAST_1));
    Optional.ofNullable(environment.get("AWS_ENDPOINT_URL_S3"))
        .or(() -> Optional.ofNullable(environment.get("AWS_ENDPOINT_URL")))
        .filter(e -> !e.isBlank())
        .ifPresent(e -> builder.endpointOverride(URI.create(e)));
    return builder.build();
  }
}
