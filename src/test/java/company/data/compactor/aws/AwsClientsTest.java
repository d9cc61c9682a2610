package company.data.compactor.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import company.data.compactor.error.CompactorException;
import company.data.compactor.model.RetryPolicy;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AwsClientsTest {

  @Test
  void retryPolicy_defaultsWhenUnset() {
    assertThat(AwsClients.retryPolicy(Map.of())).isEqualTo(RetryPolicy.defaults());
  }

  @Test
  void retryPolicy_fromTheEnvironment() {
    RetryPolicy policy =
        AwsClients.retryPolicy(
            Map.of(
                "COMPACTOR_AWS_MAX_ATTEMPTS", "7",
                "COMPACTOR_AWS_BASE_DELAY_MS", "20",
                "COMPACTOR_AWS_MAX_BACKOFF_MS", "300",
                "COMPACTOR_AWS_ATTEMPT_TIMEOUT_MS", "1500",
                "COMPACTOR_AWS_CALL_TIMEOUT_MS", "9000"));

    assertThat(policy)
        .isEqualTo(
            new RetryPolicy(
                7,
                Duration.ofMillis(20),
                Duration.ofMillis(300),
                Duration.ofMillis(1500),
                Duration.ofMillis(9000)));
  }

  @Test
  void retryPolicy_malformedValues_areAllNamedAtOnce() {
    CompactorException e =
        catchThrowableOfType(
            CompactorException.class,
            () ->
                AwsClients.retryPolicy(
                    Map.of(
                        "COMPACTOR_AWS_MAX_ATTEMPTS",
                        "0",
                        "COMPACTOR_AWS_CALL_TIMEOUT_MS",
                        "soon")));

    assertThat(e.kind()).isEqualTo(CompactorException.Kind.INVALID_REQUEST);
    assertThat(e.violations())
        .extracting(v -> v.key())
        .containsExactlyInAnyOrder("COMPACTOR_AWS_MAX_ATTEMPTS", "COMPACTOR_AWS_CALL_TIMEOUT_MS");
  }
}
