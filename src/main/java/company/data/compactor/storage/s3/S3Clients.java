package company.data.compactor.storage.s3;

import company.data.compactor.aws.AwsClients;
import company.data.compactor.model.RetryPolicy;
import java.util.Map;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;

/**
 * Builds the S3 client from the standard AWS settings: credentials from {@code
 * AWS_ACCESS_KEY_ID}/{@code AWS_SECRET_ACCESS_KEY}(/{@code AWS_SESSION_TOKEN}) in the given
 * environment, else the default provider chain (profiles, Lambda role); region from {@code
 * AWS_REGION} or {@code AWS_DEFAULT_REGION}, else us-east-1; endpoint from {@code
 * AWS_ENDPOINT_URL_S3} or {@code AWS_ENDPOINT_URL} (S3-compatible stores); path-style addressing
 * when {@code COMPACTOR_S3_PATH_STYLE=true}. Retries and timeouts follow {@link
 * AwsClients#retryPolicy}.
 */
public final class S3Clients {

  private S3Clients() {}

  /** A client configured from {@code environment} (usually {@link System#getenv()}). */
  public static S3Client fromEnvironment(Map<String, String> environment) {
    return build(environment, AwsClients.retryPolicy(environment));
  }

  /**
   * The client for conditional writes ({@code If-None-Match: *}): one attempt per call, never
   * retried by the SDK. A retried conditional PUT whose first response was lost meets its own
   * object and answers 412; {@link S3Storage} leaves the decision to its caller, which reads the
   * object back.
   */
  public static S3Client forConditionalWrites(Map<String, String> environment) {
    return build(environment, AwsClients.retryPolicy(environment).withMaxAttempts(1));
  }

  private static S3Client build(Map<String, String> environment, RetryPolicy policy) {
    var builder =
        S3Client.builder()
            // Trailing checksums are optional for these operations; S3-compatible stores often
            // reject the aws-chunked encoding they need.
            .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
            .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
            // Over plain HTTP (S3-compatible stores, tests) the SDK would sign each 128 KB chunk of
            // an upload and the store verify each signature: ~20 MB/s on S3Proxy here. Without
            // chunked encoding it signs the whole body with one SHA-256 (a file body is read
            // twice). Over HTTPS, as on AWS, the payload is not signed either way.
            .serviceConfiguration(S3Configuration.builder().chunkedEncodingEnabled(false).build())
            .forcePathStyle(
                Boolean.parseBoolean(environment.getOrDefault("COMPACTOR_S3_PATH_STYLE", "false")));
    AwsClients.configure(builder, environment, "S3", policy);
    return builder.build();
  }
}
