package company.data.compactor.lambda;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import company.data.compactor.testing.AwsStandIns;
import company.data.compactor.testing.DynoxideServer;
import company.data.compactor.testing.FaultProxy;
import company.data.compactor.testing.FaultProxy.Fault;
import company.data.compactor.testing.FaultScenario;
import company.data.compactor.wiring.LeasedRuns;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Lease faults on the nightly schedule (issue 23, lease parts): a lease that cannot be released is
 * reported in the table's report ({@code lease_release_status}) and alerted on Slack, and the table
 * still counts as maintained; a lease that cannot be taken fails that table, alerted, and the
 * schedule goes on.
 */
class ScheduledLeaseFaultsIT {

  @TempDir Path work;
  private FaultScenario table;
  private FaultProxy dynamo;
  private final String hook = "/services/schedule/" + UUID.randomUUID();
  private final WireMock slack = AwsStandIns.client();

  @BeforeEach
  void start() {
    table = FaultScenario.fresh(work);
    dynamo = FaultProxy.in(URI.create(DynoxideServer.shared().endpoint()));
    slack.register(post(urlEqualTo(hook)).willReturn(aResponse().withStatus(200).withBody("ok")));
  }

  @AfterEach
  void stop() {
    dynamo.close();
    table.close();
  }

  private Map<String, String> environment() {
    Map<String, String> env = new HashMap<>(table.environment());
    env.put("AWS_ENDPOINT_URL_DYNAMODB", dynamo.endpoint().toString());
    env.put("COMPACTOR_LEASE_TABLE", DynoxideServer.shared().newLeaseTable());
    env.put("SLACK_WEBHOOK_URL", AwsStandIns.endpoint() + hook);
    env.put("COMPACTOR_SLACK_MAX_ATTEMPTS", "1");
    env.put(
        ScheduledRuns.TABLES_VARIABLE,
        "[{\"table_uri\": \"" + table.uri() + "\", \"notify_slack\": true}]");
    return env;
  }

  private Map<String, Object> schedule(Map<String, String> env) {
    return new ScheduledRuns(
            new ScheduledRuns.Parts(
                env, work, new LeasedRuns(work, env, Clock.systemUTC()), () -> "nightly-1"))
        .run();
  }

  private List<String> slackTexts() {
    return slack.find(postRequestedFor(urlEqualTo(hook))).stream()
        .map(LoggedRequest::getBodyAsString)
        .toList();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> outcome(Map<String, Object> result) {
    return ((List<Map<String, Object>>) result.get("tables")).get(0);
  }

  @Test
  @SuppressWarnings("unchecked")
  void aLeaseThatCannotBeReleased_isInTheTablesReport_andAlerted_andTheTableSucceeded() {
    dynamo.onDynamoDb("DeleteItem", 1, 1000, Fault.dynamoDb(500, "InternalServerError"));

    Map<String, Object> result = schedule(environment());

    assertThat(result.get("succeeded")).isEqualTo(1);
    Map<String, Object> report = (Map<String, Object>) outcome(result).get("report");
    assertThat(report.get("files_after")).isEqualTo(3);
    assertThat(report.get("lease_release_status")).isEqualTo("failed");
    assertThat((String) report.get("lease_release_error"))
        .startsWith("the lease of " + table.uri() + " could not be released after 3 attempts")
        .contains("it blocks other runs of the table until it expires at ");
    assertThat(slackTexts())
        .anySatisfy(
            text ->
                assertThat(text)
                    .contains(
                        "delta-compactor: lease failed for "
                            + table.uri()
                            + " (LEASE_NOT_RELEASED)"));
  }

  @Test
  void aLeaseThatCannotBeTaken_failsThatTable_alerted_andTouchesNothing() {
    Map<String, String> env = environment();
    env.put("AWS_ENDPOINT_URL_DYNAMODB", "http://127.0.0.1:9");

    Map<String, Object> result = schedule(env);

    assertThat(result.get("failed")).isEqualTo(1);
    assertThat(outcome(result).get("error_kind")).isEqualTo("OPERATION_FAILED");
    assertThat((String) outcome(result).get("error"))
        .startsWith("Failed while taking the lease of " + table.uri());
    assertThat(table.s3().seen()).isEmpty();
    assertThat(slackTexts())
        .singleElement()
        .asString()
        .contains("delta-compactor: lease failed for " + table.uri() + " (OPERATION_FAILED)");
  }
}
