package company.data.compactor.notify;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import company.data.compactor.testing.AwsStandIns;
import company.data.compactor.testing.CliRunner;
import company.data.compactor.testing.CliRunner.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Slack notifications of real runs, posted to a WireMock server standing in for Slack's
 * incoming-webhook endpoint; payloads compared whole.
 */
class SlackNotifyIT {

  private static final String HOOK = "/services/T000/B000/slack-test-secret";
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path work;
  private final WireMock slack = AwsStandIns.client();

  @BeforeEach
  void reset() {
    slack.resetMappings();
    slack.resetRequests();
  }

  private Result run(String... args) {
    Map<String, String> env =
        Map.of(
            "SLACK_WEBHOOK_URL",
            AwsStandIns.endpoint() + HOOK,
            "COMPACTOR_SLACK_MAX_ATTEMPTS",
            "3");
    return CliRunner.run(env, args);
  }

  private List<LoggedRequest> posts() {
    return slack.find(postRequestedFor(urlEqualTo(HOOK)));
  }

  private static String f(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }

  /** The summary Slack must receive for {@code report}, field by field. */
  private static String expectedSummary(JsonNode r, String state, String color) {
    boolean compacted = r.get("compacted").asBoolean();
    String files =
        compacted
            ? f(
                "%d → %d (%d fewer)",
                r.get("files_before").asInt(),
                r.get("files_after").asInt(),
                r.get("files_reduced").asInt())
            : f(
                "%d (%.1f%% small)",
                r.get("total_files").asInt(), r.get("small_file_ratio_pct").asDouble());
    String latency =
        compacted
            ? f(
                "%.1f ms → %.1f ms (%.1f%% %s)",
                r.get("read_latency_pre_ms").asDouble(),
                r.get("read_latency_post_ms").asDouble(),
                Math.abs(r.get("latency_speedup_pct").asDouble()),
                r.get("latency_speedup_pct").asDouble() >= 0 ? "faster" : "slower")
            : f("%.1f ms (nothing rewritten)", r.get("read_latency_pre_ms").asDouble());
    StringBuilder worst = new StringBuilder();
    for (JsonNode p : r.get("partitions")) {
      if (!worst.isEmpty()) {
        worst.append("\\n");
      }
      worst.append(
          f(
              "• `%s` %d files, %.1f%% small, avg %.2f MB",
              p.get("partition").asText(),
              p.get("file_count").asInt(),
              p.get("small_file_ratio_pct").asDouble(),
              p.get("avg_file_size_mb").asDouble()));
    }
    return """
        {"text": "delta-compactor: %1$s %2$s (%3$s)",
         "attachments": [{"color": "%4$s", "blocks": [
           {"type": "header", "text": {"type": "plain_text", "text": "Delta table maintenance: %2$s"}},
           {"type": "section", "text": {"type": "mrkdwn", "text": "*Table* `%1$s`\\n*Version* %5$s"}},
           {"type": "section", "fields": [
             {"type": "mrkdwn", "text": "*Files*\\n%3$s"},
             {"type": "mrkdwn", "text": "*Rewritten*\\n%6$s"},
             {"type": "mrkdwn", "text": "*Read latency*\\n%7$s"},
             {"type": "mrkdwn", "text": "*Vacuum*\\n0 candidates, 0 deleted (dry run), retention 168 h (floor)"}]},
           {"type": "section", "text": {"type": "mrkdwn", "text": "*Worst partitions*\\n%8$s"}},
           {"type": "context", "elements": [{"type": "mrkdwn", "text": "run `%9$s` · %10$s · report `%11$s`"}]}]}]}
        """
        .formatted(
            r.get("table_uri").asText(),
            state,
            files,
            color,
            compacted
                ? r.get("version_before").asLong() + " → " + r.get("version_after").asLong()
                : r.get("table_version").asText(),
            compacted ? f("%.2f MB", r.get("bytes_compacted_mb").asDouble()) : "nothing",
            latency,
            worst,
            r.get("execution_id").asText(),
            r.get("evaluated_at").asText(),
            r.get("html_report_uri").asText());
  }

  @Test
  void compactedRun_sendsTheGreenSummary_exactly() throws Exception {
    slack.register(post(urlEqualTo(HOOK)).willReturn(aResponse().withStatus(200).withBody("ok")));

    Result result = run("run", "--work-dir", work.toString(), "--notify-slack", "true", "--json");

    assertThat(result.code()).as(result.err()).isZero();
    JsonNode report = JSON.readTree(result.out());
    assertThat(posts()).hasSize(1);
    assertThat(JSON.readTree(posts().get(0).getBodyAsString()))
        .isEqualTo(JSON.readTree(expectedSummary(report, "compacted", "#2EB67D")));
    assertThat(report.get("slack_notification").asText()).isEqualTo("sent");
    assertThat(report.get("slack_notification_attempts").asInt()).isEqualTo(1);
    assertThat(report.get("slack_notification_detail").asText()).isEqualTo("HTTP 200");
  }

  @Test
  void healthyRun_sendsTheBlueSummary_exactly() throws Exception {
    slack.register(post(urlEqualTo(HOOK)).willReturn(aResponse().withStatus(200).withBody("ok")));

    Result result =
        run(
            "run",
            "--work-dir",
            work.toString(),
            "--notify-slack",
            "true",
            "--small-file-threshold-mb",
            "0.001",
            "--json");

    assertThat(result.code()).as(result.err()).isZero();
    JsonNode report = JSON.readTree(result.out());
    assertThat(report.get("compaction_required").asBoolean()).isFalse();
    assertThat(JSON.readTree(posts().get(0).getBodyAsString()))
        .isEqualTo(JSON.readTree(expectedSummary(report, "healthy", "#1D9BD1")));
  }

  @Test
  void failedRun_sendsTheRedAlert_withRunTableAndErrorClassOnly() throws Exception {
    slack.register(post(urlEqualTo(HOOK)).willReturn(aResponse().withStatus(200).withBody("ok")));

    Result result =
        run(
            "run",
            "--work-dir",
            work.toString(),
            "--demo-mode",
            "false",
            "--table-uri",
            "no_such_table",
            "--notify-slack",
            "true");

    assertThat(result.code()).isEqualTo(1);
    assertThat(posts()).hasSize(1);
    JsonNode sent = JSON.readTree(posts().get(0).getBodyAsString());
    String runId =
        sent.at("/attachments/0/blocks/1/fields/2/text")
            .asText()
            .replaceAll("^\\*Run\\*\\n`|`$", "");
    String failedAt =
        sent.at("/attachments/0/blocks/2/elements/0/text")
            .asText()
            .replaceAll("^failed at | · .*$", "");
    assertThat(runId).matches("[0-9a-f-]{36}");
    assertThat(java.time.Instant.parse(failedAt)).isNotNull();
    String table = "file:" + work.resolve("no_such_table");
    assertThat(sent)
        .isEqualTo(
            JSON.readTree(
                """
        {"text": "delta-compactor: run failed for %1$s (TABLE_NOT_FOUND)",
         "attachments": [{"color": "#E01E5A", "blocks": [
           {"type": "header", "text": {"type": "plain_text", "text": "Delta table maintenance failed"}},
           {"type": "section", "fields": [
             {"type": "mrkdwn", "text": "*Table*\\n`%1$s`"},
             {"type": "mrkdwn", "text": "*Error*\\nTABLE_NOT_FOUND"},
             {"type": "mrkdwn", "text": "*Run*\\n`%2$s`"},
             {"type": "mrkdwn", "text": "*Command*\\nrun"}]},
           {"type": "context", "elements": [{"type": "mrkdwn", "text": "failed at %3$s · details in the logs of this run"}]}]}]}
        """
                    .formatted(table, runId, failedAt)));
    assertThat(posts().get(0).getBodyAsString())
        .doesNotContain("slack-test-secret")
        .doesNotContain("Exception");
  }

  @Test
  void tooManyRequests_isRetriedAfterItsRetryAfter_andThenSent() throws Exception {
    slack.register(
        post(urlEqualTo(HOOK))
            .inScenario("throttled")
            .whenScenarioStateIs(Scenario.STARTED)
            .willReturn(
                aResponse().withStatus(429).withHeader("Retry-After", "1").withBody("rate_limited"))
            .willSetStateTo("open"));
    slack.register(
        post(urlEqualTo(HOOK))
            .inScenario("throttled")
            .whenScenarioStateIs("open")
            .willReturn(aResponse().withStatus(200).withBody("ok")));

    Result result = run("run", "--work-dir", work.toString(), "--notify-slack", "true", "--json");

    assertThat(result.code()).as(result.err()).isZero();
    JsonNode report = JSON.readTree(result.out());
    assertThat(report.get("slack_notification").asText()).isEqualTo("sent");
    assertThat(report.get("slack_notification_attempts").asInt()).isEqualTo(2);
    assertThat(report.get("slack_notification_detail").asText())
        .isEqualTo("HTTP 429 rate_limited; HTTP 200");
    List<LoggedRequest> posts = posts();
    assertThat(posts).hasSize(2);
    long gapMs =
        Math.abs(posts.get(0).getLoggedDate().getTime() - posts.get(1).getLoggedDate().getTime());
    assertThat(gapMs).as("waited for Retry-After").isGreaterThanOrEqualTo(950);
    assertThat(posts.get(0).getBodyAsString()).isEqualTo(posts.get(1).getBodyAsString());
  }

  @Test
  void serverError_isRecordedInTheReport_withoutFailingTheRun() throws Exception {
    slack.register(
        post(urlEqualTo(HOOK)).willReturn(aResponse().withStatus(500).withBody("internal error")));

    Result result = run("run", "--work-dir", work.toString(), "--notify-slack", "true", "--json");

    assertThat(result.code()).as(result.err()).isZero();
    JsonNode report = JSON.readTree(result.out());
    assertThat(report.get("compacted").asBoolean()).isTrue();
    assertThat(report.get("slack_notification").asText()).isEqualTo("failed");
    assertThat(report.get("slack_notification_attempts").asInt()).isEqualTo(3);
    assertThat(report.get("slack_notification_detail").asText())
        .isEqualTo(
            "HTTP 500 internal error; HTTP 500 internal error; HTTP 500 internal error, gave up after 3 attempts");
    assertThat(posts()).hasSize(3);
    assertThat(Files.readString(work.resolve(".delta-compactor/telemetry.jsonl")))
        .contains("\"slack_notification\":\"failed\"");
  }

  @Test
  void notifySlackFalse_sendsNothing() throws Exception {
    Result result = run("run", "--work-dir", work.toString(), "--json");

    assertThat(result.code()).isZero();
    assertThat(posts()).isEmpty();
    assertThat(JSON.readTree(result.out()).get("slack_notification").asText()).isEqualTo("skipped");
  }
}
