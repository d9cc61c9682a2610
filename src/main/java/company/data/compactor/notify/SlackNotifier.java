package company.data.compactor.notify;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.report.MaintenanceReport;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/**
 * Posts {@link SlackMessages} to a Slack incoming-webhook URL with the JDK's HTTP client: at most 5
 * s to connect, {@code attemptTimeout} per request (default 10 s), at most {@code maxAttempts}
 * attempts and {@code callTimeout} (default 30 s) for one message with its retries. A 429 is
 * retried after its {@code Retry-After} (capped at {@link #MAX_RETRY_AFTER}); a 5xx, an I/O error
 * or a timeout after a backoff with jitter; other answers are final. Failures are returned, never
 * thrown; the URL (a secret) is never logged or reported.
 */
public final class SlackNotifier implements Notifier {

  private static final System.Logger LOG = System.getLogger(SlackNotifier.class.getName());
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * The longest {@code Retry-After} honoured; a longer one gives up instead of stalling the run.
   */
  static final Duration MAX_RETRY_AFTER = Duration.ofSeconds(30);

  private final URI webhook;
  private final int maxAttempts;
  private final Duration backoff;
  private final Duration attemptTimeout;
  private final Duration callTimeout;
  private final HttpClient http;

  /**
   * @param maxAttempts attempts per message, at least 1
   * @param backoff wait before the second attempt after a 5xx or I/O error, doubled each time
   */
  public SlackNotifier(URI webhook, int maxAttempts, Duration backoff) {
    this(webhook, maxAttempts, backoff, Duration.ofSeconds(10), Duration.ofSeconds(30));
  }

  /**
   * @param attemptTimeout one request, from sending to the whole answer
   * @param callTimeout one message with all its attempts and waits
   */
  public SlackNotifier(
      URI webhook,
      int maxAttempts,
      Duration backoff,
      Duration attemptTimeout,
      Duration callTimeout) {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be >= 1");
    }
    this.webhook = webhook;
    this.maxAttempts = maxAttempts;
    this.backoff = backoff;
    this.attemptTimeout = attemptTimeout;
    this.callTimeout = callTimeout;
    Duration connect =
        attemptTimeout.compareTo(Duration.ofSeconds(5)) < 0
            ? attemptTimeout
            : Duration.ofSeconds(5);
    this.http = HttpClient.newBuilder().connectTimeout(connect).build();
  }

  @Override
  public NotificationResult success(MaintenanceReport report) {
    return post(SlackMessages.summary(report));
  }

  @Override
  public NotificationResult failure(FailureAlert alert) {
    return post(SlackMessages.failure(alert));
  }

  private NotificationResult post(Map<String, Object> message) {
    byte[] body;
    try {
      body = JSON.writeValueAsBytes(message);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a message of plain values must serialise", e);
    }
    HttpRequest request =
        HttpRequest.newBuilder(webhook)
            .timeout(attemptTimeout)
            .header("Content-Type", "application/json; charset=utf-8")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build();
    StringBuilder history = new StringBuilder();
    Duration wait = backoff;
    long deadline = System.nanoTime() + callTimeout.toNanos();
    for (int attempt = 1; ; attempt++) {
      Duration pause;
      try {
        HttpResponse<String> response =
            http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        int status = response.statusCode();
        if (status / 100 == 2) {
          history.append("HTTP ").append(status);
          return new NotificationResult("sent", history.toString(), attempt);
        }
        history.append("HTTP ").append(status).append(' ').append(shorten(response.body()));
        if (status == 429) {
          pause = retryAfter(response);
          if (pause.compareTo(MAX_RETRY_AFTER) > 0) {
            return failed(
                history
                    .append(" (Retry-After ")
                    .append(pause.toSeconds())
                    .append(" s is too long)"),
                attempt);
          }
        } else if (status >= 500) {
          pause = jittered(wait);
          wait = wait.multipliedBy(2);
        } else {
          return failed(history, attempt);
        }
      } catch (IOException e) {
        history.append(e.getClass().getSimpleName());
        pause = jittered(wait);
        wait = wait.multipliedBy(2);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return failed(history.append("interrupted"), attempt);
      }
      if (attempt >= maxAttempts) {
        return failed(
            history.append(", gave up after ").append(attempt).append(" attempts"), attempt);
      }
      if (System.nanoTime() + pause.toNanos() + attemptTimeout.toNanos() > deadline) {
        return failed(
            history
                .append(", gave up: another attempt would pass the ")
                .append(callTimeout.toMillis())
                .append(" ms call timeout"),
            attempt);
      }
      history.append("; ");
      LOG.log(
          Level.INFO, "slack: attempt {0} failed, retrying in {1} ms", attempt, pause.toMillis());
      try {
        Thread.sleep(pause.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return failed(history.append("interrupted"), attempt);
      }
    }
  }

  /** Between half and all of {@code wait}, so retries of many runs do not line up. */
  private static Duration jittered(Duration wait) {
    return Duration.ofMillis(
        (long)
            (wait.toMillis()
                * (0.5 + java.util.concurrent.ThreadLocalRandom.current().nextDouble() / 2)));
  }

  private static NotificationResult failed(StringBuilder history, int attempts) {
    return new NotificationResult("failed", history.toString(), attempts);
  }

  private static Duration retryAfter(HttpResponse<?> response) {
    try {
      return Duration.ofSeconds(
          Math.max(
              0, Long.parseLong(response.headers().firstValue("Retry-After").orElse("1").strip())));
    } catch (NumberFormatException e) {
      return Duration.ofSeconds(1);
    }
  }

  private static String shorten(String body) {
    String oneLine = body == null ? "" : body.replaceAll("\\s+", " ").strip();
    return oneLine.length() > 100 ? oneLine.substring(0, 100) + "..." : oneLine;
  }
}
