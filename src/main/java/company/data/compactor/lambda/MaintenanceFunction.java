package company.data.compactor.lambda;

import company.data.compactor.admission.Admission;
import company.data.compactor.admission.AdmittedRun;
import company.data.compactor.admission.Trigger;
import company.data.compactor.error.Errors;
import company.data.compactor.report.ReportJson;
import company.data.compactor.wiring.LeasedRuns;
import io.quarkus.funqy.Funq;
import jakarta.inject.Inject;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.inject.ConfigProperty;

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
                  () -> UUID.randomUUID().toString()))
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
      return ReportJson.asMap(
          runs.run(
              runs.resume(run, handoff.get().lease()),
              (pipeline, admitted) -> pipeline.run(admitted)));
    }
    AdmittedRun run = admission.admit(Trigger.DIRECT_EVENT, input);
    return ReportJson.asMap(
        runs.run(
            runs.take(run, UUID.randomUUID().toString()),
            (pipeline, admitted) -> pipeline.run(admitted)));
  }
}
