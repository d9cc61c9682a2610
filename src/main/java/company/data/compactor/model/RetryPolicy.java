package company.data.compactor.model;

import java.time.Duration;
import java.util.function.DoubleSupplier;

/**
 * How a call to a side service or store is retried and bounded: at most {@code maxAttempts}
 * attempts, waiting a random time between zero and {@code min(maxBackoff, baseDelay * 2^(n-1))}
 * before attempt {@code n + 1} ("full jitter"), each attempt cut off after {@code attemptTimeout}
 * and the whole call, retries and waits included, after {@code callTimeout}.
 *
 * <p>Only idempotent calls are retried blindly; a conditional write whose response was lost is
 * decided by reading back what is stored (see the Delta log committer and the telemetry sink).
 *
 * @param maxAttempts attempts per call, at least 1 (default {@value #DEFAULT_MAX_ATTEMPTS})
 * @param baseDelay the first backoff's upper bound (default 100 ms)
 * @param maxBackoff no backoff is longer (default 5 s)
 * @param attemptTimeout one attempt, connect and read (default 30 s)
 * @param callTimeout one call with its retries (default 120 s)
 */
public record RetryPolicy(
    int maxAttempts,
    Duration baseDelay,
    Duration maxBackoff,
    Duration attemptTimeout,
    Duration callTimeout) {

  public static final int DEFAULT_MAX_ATTEMPTS = 5;

  public RetryPolicy {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1, was " + maxAttempts);
    }
    for (Duration d : new Duration[] {baseDelay, maxBackoff, attemptTimeout, callTimeout}) {
      if (d == null || d.isNegative()) {
        throw new IllegalArgumentException("durations must be zero or more, was " + d);
      }
    }
    if (attemptTimeout.isZero() || callTimeout.isZero()) {
      throw new IllegalArgumentException("timeouts must be more than zero");
    }
  }

  /** 5 attempts, 100 ms base delay, 5 s longest backoff, 30 s per attempt, 120 s per call. */
  public static RetryPolicy defaults() {
    return new RetryPolicy(
        DEFAULT_MAX_ATTEMPTS,
        Duration.ofMillis(100),
        Duration.ofSeconds(5),
        Duration.ofSeconds(30),
        Duration.ofSeconds(120));
  }

  /** This policy with {@code attempts} attempts. */
  public RetryPolicy withMaxAttempts(int attempts) {
    return new RetryPolicy(attempts, baseDelay, maxBackoff, attemptTimeout, callTimeout);
  }

  /** The wait before attempt {@code failedAttempts + 1}, drawn with {@code random} in [0, 1). */
  public Duration backoff(int failedAttempts, DoubleSupplier random) {
    long ceiling = baseDelay.toMillis() << Math.min(20, Math.max(0, failedAttempts - 1));
    long bound = Math.min(maxBackoff.toMillis(), ceiling);
    return Duration.ofMillis((long) (random.getAsDouble() * bound));
  }

  /** Whether attempt {@code attempt} (1-based) may follow a failed one. */
  public boolean allowsAnotherAfter(int attempt) {
    return attempt < maxAttempts;
  }
}
