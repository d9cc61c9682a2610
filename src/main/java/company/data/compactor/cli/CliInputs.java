package company.data.compactor.cli;

import company.data.compactor.config.InputKey;
import company.data.compactor.config.MaintenanceRequest;
import company.data.compactor.config.RequestReader;
import company.data.compactor.config.TableUris;
import company.data.compactor.error.CompactorException;
import company.data.compactor.lease.Lease;
import company.data.compactor.lease.Leases;
import company.data.compactor.model.TableLocation;
import company.data.compactor.notify.FailureAlert;
import company.data.compactor.notify.NotificationResult;
import company.data.compactor.pipeline.MaintenancePipeline;
import company.data.compactor.report.MaintenanceReport;
import company.data.compactor.wiring.Wiring;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import picocli.CommandLine.Model.CommandSpec;

/** What every command does with its flags: validate them as request inputs, run, print. */
final class CliInputs {

  private static final System.Logger LOG = System.getLogger(CliInputs.class.getName());

  private CliInputs() {}

  /** Adds a flag's raw value under its input key; absent flags take the input's default. */
  static void put(Map<String, Object> inputs, InputKey key, String value) {
    if (value != null) {
      inputs.put(key.key(), value);
    }
  }

  /** One pipeline operation of a command. */
  @FunctionalInterface
  interface Operation {
    MaintenanceReport apply(
        MaintenancePipeline pipeline, MaintenanceRequest request, TableLocation location);
  }

  /**
   * Validates {@code inputs} (every violation at once, nothing touched), wires the pipeline for the
   * table and runs {@code operation}, then prints the report.
   */
  static int run(
      CommandSpec spec,
      Main main,
      CommonOptions common,
      Map<String, Object> inputs,
      Operation operation) {
    MaintenanceRequest request = RequestReader.read(inputs);
    TableLocation location = TableUris.resolve(request, common.workDir());
    MaintenancePipeline pipeline = Wiring.pipeline(location, common.workDir(), main.environment());
    Output.print(spec, common, operation.apply(pipeline, request, location));
    return Main.EXIT_OK;
  }

  /**
   * As {@link #run}, for commands that may change the table: the run holds the table's lease (see
   * {@link Wiring#leases}), so a second run on the same table is refused while it works. A lease
   * that cannot be taken or released is alerted on Slack when the run asked for Slack; a release
   * failure is reported in {@code lease_release_status} and, like a telemetry failure, gives exit
   * code {@value Main#EXIT_REPORTING_FAILED} with the report printed.
   */
  static int runLeased(
      CommandSpec spec,
      Main main,
      CommonOptions common,
      Map<String, Object> inputs,
      Operation operation) {
    MaintenanceRequest request = RequestReader.read(inputs);
    TableLocation location = TableUris.resolve(request, common.workDir());
    String executionId = UUID.randomUUID().toString();
    MaintenancePipeline pipeline =
        Wiring.pipeline(location, common.workDir(), main.environment(), executionId);
    Leases leases = Wiring.leases(common.workDir(), main.environment(), Clock.systemUTC());
    Lease lease;
    try {
      lease = leases.take(location, executionId);
    } catch (CompactorException e) {
      alertLease(main, request, location, executionId, e.kind().name());
      throw e;
    }
    Leases.Held<MaintenanceReport> held =
        leases.hold(lease, () -> operation.apply(pipeline, request, location));
    if (held.releaseError().isPresent()) {
      alertLease(main, request, location, executionId, "LEASE_NOT_RELEASED");
    }
    MaintenanceReport report = held.value().withLeaseRelease(held.releaseError());
    Output.print(spec, common, report);
    return report.delivery() != null && report.delivery().reportingFailed()
        ? Main.EXIT_REPORTING_FAILED
        : Main.EXIT_OK;
  }

  /**
   * A Slack alert that the table's lease could not be taken or released, when Slack was asked for.
   */
  private static void alertLease(
      Main main,
      MaintenanceRequest request,
      TableLocation location,
      String executionId,
      String errorClass) {
    if (!request.notifySlack()) {
      return;
    }
    NotificationResult sent =
        Wiring.notifier(main.environment())
            .failure(
                new FailureAlert(
                    executionId, location.uri(), "lease", errorClass, Instant.now().toString()));
    LOG.log(
        System.Logger.Level.INFO,
        "slack lease alert: table={0} run={1} {2} ({3})",
        location,
        executionId,
        sent.status(),
        sent.detail());
  }
}
