package company.data.compactor.lambda;

import company.data.compactor.admission.Admission;
import company.data.compactor.admission.AdmittedRun;
import company.data.compactor.admission.Trigger;
import company.data.compactor.aws.AwsClients;
import company.data.compactor.error.Errors;
import company.data.compactor.fanout.ExecutionBudget;
import company.data.compactor.fanout.ExecutionMode;
import company.data.compactor.report.ExecutionReport;
import company.data.compactor.report.MaintenanceReport;
import company.data.compactor.report.ReportJson;
import company.data.compactor.telemetry.EmfMetrics;
import company.data.compactor.wiring.LeasedRuns;
import io.quarkus.funqy.Funq;
import jakarta.inject.Inject;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import software.amazon.awssdk.services.sfn.SfnClient;

/**
 * The maintenance function (Funqy {@code maintenance}). It takes three kinds of event:
 *
 * <ul>
 *   <li>an EventBridge scheduled event: maintains every table of {@code
 *       COMPACTOR_SCHEDULED_TABLES}, each isolated (see {@link ScheduledRuns});
 *   <li>a hand-off from the webhook ({@code {"handoff": ...}}): admits the accepted request again
 *       and runs it under the lease the webhook took, then releases it;
 *   <li>a direct invocation: the request's inputs as a JSON object with the design's snake-case
 *       names, e.g. {@code {"demo_mode": true}}; the run takes the table's lease itself.
 * </ul>
 *
 * Every run goes through admission ({@link Admission}) and runs under its table's lease with a
 * heartbeat ({@link LeasedRuns}). A run returns the report with the same field names as {@code
 * bin/compactor run --json}, {@code lease_release_status} included. Invalid input fails the
 * invocation with the message naming every broken rule, before anything is touched; so does a table
 * another run holds.
 */
public class MaintenanceFunction {

  @ConfigProperty(name = "compactor.work-dir")
  String workDir;

  @Inject Config config;

  private Secrets secrets;

  /** The secrets, kept across invocations of this container (Secrets caches them). */
  private synchronized Secrets secrets() {
    if (secrets == null) {
      secrets = new Secrets(new LambdaEnvironment(config), Clock.systemUTC());
    }
    return secrets;
  }

  /** Runs maintenance for one event. */
  @Funq("maintenance")
  public Map<String, Object> maintenance(Map<String, Object> event) {
    Map<String, Object> input = event == null ? Map.of() : event;
    Map<String, String> environment = new LambdaEnvironment(config, secrets());
    Path work = Path.of(workDir).toAbsolutePath();
    Clock clock = Clock.systemUTC();
    if (ScheduledRuns.isScheduledEvent(input)) {
      return new ScheduledRuns(
              new ScheduledRuns.Parts(
                  environment,
                  work,
                  new LeasedRuns(work, environment, clock),
                  () -> UUID.randomUUID().toString(),
                  (runId, run, reason) -> starter(environment).start(runId, run, reason, null),
                  System.out::println))
          .run();
    }
    Optional<Handoff> handoff;
    try {
      handoff = Handoff.from(input);
    } catch (IllegalArgumentException e) {
      throw Errors.refused("run a hand-off", e.getMessage() + ". Nothing was touched.");
    }
    Admission admission = Admission.configuredBy(environment, work);
    LeasedRuns runs = new LeasedRuns(work, environment, clock);
    if (handoff.isPresent()) {
      AdmittedRun run = admission.admit(Trigger.HANDOFF, handoff.get().inputs());
      ExecutionBudget.Decision decision;
      try {
        decision = RunRouting.decide(run, environment, work);
      } catch (RuntimeException e) {
        // The in-process run meets the same problem, reports it and releases the webhook's lease.
        decision =
            new ExecutionBudget.Decision(
                ExecutionMode.IN_PROCESS,
                0,
                0,
                "the plan could not be estimated (" + e.getMessage() + "); runs in process");
      }
      if (decision.mode() == ExecutionMode.STATE_MACHINE) {
        // The Plan task continues the webhook's lease: it is the run id's.
        String execution;
        try {
          execution =
              starter(environment)
                  .start(handoff.get().runId(), run, decision.reason(), handoff.get().lease());
        } catch (RuntimeException e) {
          runs.leases().store().release(handoff.get().lease());
          throw e;
        }
        Map<String, Object> started = new LinkedHashMap<>();
        started.put("run_id", handoff.get().runId());
        started.put("table_uri", run.location().uri());
        started.put("execution_mode", decision.mode().label());
        started.put("execution_reason", decision.reason());
        started.put("state_machine_execution", execution);
        return started;
      }
      return measured(
          runs.run(
                  runs.resume(run, handoff.get().lease()),
                  (pipeline, admitted) -> pipeline.run(admitted))
              .withExecution(ExecutionReport.inProcess(decision.reason())));
    }
    AdmittedRun run = admission.admit(Trigger.DIRECT_EVENT, input);
    return measured(
        runs.run(
                runs.take(run, UUID.randomUUID().toString()),
                (pipeline, admitted) -> pipeline.run(admitted))
            .withExecution(ExecutionReport.inProcess("a direct invocation runs in process")));
  }

  /** Prints the report's EMF lines (CloudWatch Logs extracts the metrics) and answers it. */
  private static Map<String, Object> measured(MaintenanceReport report) {
    EmfMetrics.lines(report, java.time.Instant.now()).forEach(System.out::println);
    return ReportJson.asMap(report);
  }

  private SfnClient sfn;

  /** The state machine starter; its client kept across invocations of this container. */
  private synchronized StateMachineStarter starter(Map<String, String> environment) {
    String arn = environment.get(StateMachineStarter.ARN_VARIABLE);
    if (arn == null || arn.isBlank()) {
      throw Errors.refused(
          "start a fan-out run", StateMachineStarter.ARN_VARIABLE + " names no state machine");
    }
    if (sfn == null) {
      sfn = AwsClients.configure(SfnClient.builder(), environment, "SFN").build();
    }
    return new StateMachineStarter(sfn, arn.strip());
  }
}
