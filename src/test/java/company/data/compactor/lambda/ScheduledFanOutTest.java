package company.data.compactor.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.delta.kernel.KernelDeltaTables;
import company.data.compactor.delta.kernel.KernelTableWriter;
import company.data.compactor.demo.DemoSeeder;
import company.data.compactor.lease.FileLeaseStore;
import company.data.compactor.lease.Leases;
import company.data.compactor.model.TableLocation;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.wiring.LeasedRuns;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The nightly schedule's choice per table: a plan over one invocation's budget starts the fan-out
 * state machine (and touches nothing itself), a plan within it runs in process; the outcome and the
 * report say which.
 */
class ScheduledFanOutTest {

  @TempDir Path work;

  private final List<String> started = new CopyOnWriteArrayList<>();
  private final List<String> metrics = new CopyOnWriteArrayList<>();
  private Leases leases;

  @BeforeEach
  void aFragmentedTable() {
    LocalStorage storage = new LocalStorage();
    KernelDeltaTables tables = new KernelDeltaTables(storage);
    new DemoSeeder(storage, tables, new KernelTableWriter(storage))
        .seed(TableLocation.parse("events", work));
    leases =
        new Leases(
            new FileLeaseStore(work.resolve("leases")), Clock.systemUTC(), Leases.DEFAULT_TTL);
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> schedule(Map<String, String> extra) {
    Map<String, String> env = new HashMap<>(extra);
    env.put(ScheduledRuns.TABLES_VARIABLE, "[{\"table_uri\": \"events\"}]");
    return new ScheduledRuns(
            new ScheduledRuns.Parts(
                env,
                work,
                new LeasedRuns(work, env, Clock.systemUTC(), leases),
                () -> "nightly-run",
                (runId, run, reason) -> {
                  started.add(runId + " " + run.location().uri() + ": " + reason);
                  return "arn:aws:states:us-east-1:123456789012:execution:fanout:" + runId;
                },
                metrics::add))
        .run();
  }

  @Test
  void aPlanOverTheBudget_startsTheStateMachine_andTouchesNothing() {
    Map<String, Object> result =
        schedule(
            Map.of(
                StateMachineStarter.ARN_VARIABLE,
                "arn:aws:states:us-east-1:123456789012:stateMachine:fanout",
                "COMPACTOR_REWRITE_MB_PER_SECOND",
                "0.001",
                "COMPACTOR_COMPACTION_BUDGET_SECONDS",
                "1"));

    assertThat(result.get("started")).isEqualTo(1);
    assertThat(result.get("succeeded")).isEqualTo(0);
    Map<?, ?> outcome = (Map<?, ?>) ((List<?>) result.get("tables")).get(0);
    assertThat(outcome.get("status")).isEqualTo("started");
    assertThat(outcome.get("execution_mode")).isEqualTo("state_machine");
    assertThat(outcome.get("state_machine_execution").toString()).endsWith(":nightly-run");
    assertThat(started).hasSize(1);
    assertThat(started.get(0)).startsWith("nightly-run file:" + work.resolve("events"));
    assertThat(started.get(0)).contains("over the 1 s one invocation may spend compacting");
    // Nothing compacted, no lease left behind: the Plan task takes it.
    assertThat(
            new KernelDeltaTables(new LocalStorage())
                .loadLatest(TableLocation.parse("events", work))
                .activeFiles())
        .hasSize(30);
    assertThat(
            leases
                .store()
                .tryAcquire(
                    TableLocation.parse("events", work),
                    "x",
                    java.time.Instant.now(),
                    Leases.DEFAULT_TTL)
                .acquired())
        .isPresent();
    assertThat(metrics).isEmpty();
  }

  @Test
  void aPlanWithinTheBudget_runsInProcess_andTheReportSaysSo() throws Exception {
    Map<String, Object> result =
        schedule(
            Map.of(
                StateMachineStarter.ARN_VARIABLE,
                "arn:aws:states:us-east-1:123456789012:stateMachine:fanout"));

    assertThat(result.get("succeeded")).isEqualTo(1);
    assertThat(started).isEmpty();
    Map<?, ?> outcome = (Map<?, ?>) ((List<?>) result.get("tables")).get(0);
    Map<?, ?> report = (Map<?, ?>) outcome.get("report");
    assertThat(report.get("execution_mode")).isEqualTo("in_process");
    assertThat(report.get("execution_reason").toString()).contains("within the 600 s");
    assertThat(report.get("run_outcome")).isNull();
    assertThat(report.get("files_after")).isEqualTo(3);
    assertThat(metrics).hasSize(1 + 3);
    assertThat(new ObjectMapper().readTree(metrics.get(0)).get("execution_mode").asText())
        .isEqualTo("in_process");
  }

  @Test
  void withoutAStateMachine_everyTableRunsInProcess_asBefore() {
    Map<String, Object> result = schedule(Map.of());

    Map<?, ?> outcome = (Map<?, ?>) ((List<?>) result.get("tables")).get(0);
    assertThat(outcome.get("status")).isEqualTo("succeeded");
    assertThat(outcome.get("execution_reason")).isEqualTo("no fan-out state machine is configured");
    assertThat(started).isEmpty();
  }
}
