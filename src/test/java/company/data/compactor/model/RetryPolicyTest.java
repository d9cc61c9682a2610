package company.data.compactor.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {

  private final RetryPolicy policy =
      new RetryPolicy(
          5,
          Duration.ofMillis(100),
          Duration.ofMillis(1000),
          Duration.ofSeconds(2),
          Duration.ofSeconds(10));

  @Test
  void backoff_isFullJitterUnderADoublingCeiling_cappedByMaxBackoff() {
    assertThat(policy.backoff(1, () -> 0.999)).isEqualTo(Duration.ofMillis(99));
    assertThat(policy.backoff(2, () -> 0.999)).isEqualTo(Duration.ofMillis(199));
    assertThat(policy.backoff(3, () -> 0.5)).isEqualTo(Duration.ofMillis(200));
    assertThat(policy.backoff(10, () -> 0.999)).isEqualTo(Duration.ofMillis(999));
    assertThat(policy.backoff(60, () -> 0.999)).isEqualTo(Duration.ofMillis(999));
    assertThat(policy.backoff(4, () -> 0.0)).isZero();
  }

  @Test
  void attempts_areCountedFromOne() {
    assertThat(policy.allowsAnotherAfter(4)).isTrue();
    assertThat(policy.allowsAnotherAfter(5)).isFalse();
    assertThat(policy.withMaxAttempts(1).allowsAnotherAfter(1)).isFalse();
  }

  @Test
  void nonsense_isRefused() {
    assertThatThrownBy(() -> policy.withMaxAttempts(0))
        .hasMessage("maxAttempts must be at least 1, was 0");
    assertThatThrownBy(
            () ->
                new RetryPolicy(
                    1, Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ofSeconds(1)))
        .hasMessage("timeouts must be more than zero");
  }
}
