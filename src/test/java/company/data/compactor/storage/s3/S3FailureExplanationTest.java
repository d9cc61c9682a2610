package company.data.compactor.storage.s3;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.SdkClientException;

/** The cause and fix of an S3 failure, in one line. */
class S3FailureExplanationTest {

  @Test
  void missingCredentials_sayWhichVariablesToSet() {
    SdkClientException e =
        SdkClientException.create(
            "Unable to load credentials from any of the providers in the chain"
                + " AwsCredentialsProviderChain(...)");

    assertThat(S3Storage.explain(e, "http://127.0.0.1:9000"))
        .isEqualTo(
            "no AWS credentials (Unable to load credentials from any provider in the chain)."
                + " Fix: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE, or run"
                + " where an IAM role provides them");
  }

  @Test
  void aRefusedConnection_namesTheEndpoint() {
    SdkClientException e =
        SdkClientException.create(
            "Unable to execute HTTP request: Connection refused",
            new java.net.ConnectException("Connection refused"));

    assertThat(S3Storage.explain(e, "http://127.0.0.1:9"))
        .isEqualTo(
            "connection refused to http://127.0.0.1:9 (Connection refused). Fix: check"
                + " AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL, and that the S3 server there is"
                + " running");
  }
}
