package company.data.compactor.lambda;

import company.data.compactor.config.MaintenanceRequest;
import company.data.compactor.config.RequestReader;
import company.data.compactor.config.TableUris;
import company.data.compactor.error.Errors;
import company.data.compactor.lease.Leases;
import company.data.compactor.model.TableLocation;
import company.data.compactor.report.MaintenanceReport;
import company.data.compactor.report.ReportJson;
import company.data.compactor.wiring.Wiring;
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
 *   <li>a hand-off from the webhook ({@code {"handoff": ...}}): runs the accepted request under the
 *       lease the webhook took, then releases it;
 *   <li>a direct invocation: the request's inputs as a JSON object with the design's snake-case
 *       names, e.g. {@code {"demo_mode": true}}; the run takes the table's lease itself.
 * </ul>
 *
 * A run returns the report with the same field names as {@code bin/compactor run --json}. Invalid
 * input fails the invocation with the message naming every broken rule, before anything is touched;
 * so does a table another run holds.
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
      Leases leases = Wiring.leases(work, environment, clock);
      return new ScheduledRuns(
              new ScheduledRuns.Parts(
                  environment,
                  work,
                  leases,
                  clock,
                  () -> UUID.randomUUID().toString(),
                  (location, runId) -> Wiring.pipeline(location, work, environment, runId)))
          .run();
    }
    Optional<Handoff> handoff;
    try {
      handoff = Handoff.from(input);
    } catch (IllegalArgumentException e) {
      throw Errors.refused("run a hand-off", e.getMessage() + ". Nothing was touched.");
    }
    if (handoff.isPresent()) {
      return continueHandoff(handoff.get(), environment, work, clock);
    }
    MaintenanceRequest request = RequestReader.read(input);
    TableLocation location = TableUris.resolve(request, work);
    String runId = UUID.randomUUID().toString();
    var pipeline = Wiring.pipeline(location, work, environment, runId);
    Leases leases = Wiring.leases(work, environment, clock);
    Leases.Held<MaintenanceReport> held =
        leases.hold(leases.take(location, runId), () -> pipeline.run(request, location));
    return ReportJson.asMap(held.value().withLeaseRelease(held.releaseError()));
  }

  private static Map<String, Object> continueHandoff(
      Handoff handoff, Map<String, String> environment, Path work, Clock clock) {
    MaintenanceRequest request = RequestReader.read(handoff.inputs());
    TableLocation location = TableUris.resolve(request, work);
    if (!location.uri().equals(handoff.lease().tableUri())) {
      throw Errors.refused(
          "run hand-off " + handoff.runId(),
          "its lease is for "
              + handoff.lease().tableUri()
              + " but its request names "
              + location
              + ". Nothing was touched.");
    }
    var pipeline = Wiring.pipeline(location, work, environment, handoff.runId());
    Leases.Held<MaintenanceReport> held =
        Wiring.leases(work, environment, clock)
            .continueHolding(handoff.lease(), () -> pipeline.run(request, location));
    return ReportJson.asMap(held.value().withLeaseRelease(held.releaseError()));
  }
}
