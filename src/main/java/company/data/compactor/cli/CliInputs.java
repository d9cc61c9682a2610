package company.data.compactor.cli;

import company.data.compactor.config.InputKey;
import company.data.compactor.config.MaintenanceRequest;
import company.data.compactor.config.RequestReader;
import company.data.compactor.config.TableUris;
import company.data.compactor.model.TableLocation;
import company.data.compactor.pipeline.MaintenancePipeline;
import company.data.compactor.report.MaintenanceReport;
import company.data.compactor.wiring.Wiring;
import company.data.compactor.lease.Leases;
import java.time.Clock;
import java.util.Map;
import java.util.UUID;
import picocli.CommandLine.Model.CommandSpec;

/** What every command does with its flags: validate them as request inputs, run, print. */
final class CliInputs {

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
    MaintenanceReport apply(MaintenancePipeline pipeline, MaintenanceRequest request, TableLocation location);
  }

  /**
   * Validates {@code inputs} (every violation at once, nothing touched), wires the pipeline for
   * the table and runs {@code operation}, then prints the report.
   */
  static int run(CommandSpec spec, Main main, CommonOptions common, Map<String, Object> inputs, Operation operation) {
    MaintenanceRequest request = RequestReader.read(inputs);
    TableLocation location = TableUris.resolve(request, common.workDir());
    MaintenancePipeline pipeline = Wiring.pipeline(location, common.workDir(), main.environment());
    Output.print(spec, common, operation.apply(pipeline, request, location));
    return Main.EXIT_OK;
  }

  /**
   * As {@link #run}, for commands that may change the table: the run holds the table's lease
   * (see {@link Wiring#leases}), so a second run on the same table is refused while it works.
   */
  static int runLeased(CommandSpec spec, Main main, CommonOptions common, Map<String, Object> inputs, Operation operation) {
    MaintenanceRequest request = RequestReader.read(inputs);
    TableLocation location = TableUris.resolve(request, common.workDir());
    String executionId = UUID.randomUUID().toString();
    MaintenancePipeline pipeline = Wiring.pipeline(location, common.workDir(), main.environment(), executionId);
    Leases leases = Wiring.leases(common.workDir(), main.environment(), Clock.systemUTC());
    MaintenanceReport report = leases.holding(location, executionId, () -> operation.apply(pipeline, request, location));
    Output.print(spec, common, report);
    return Main.EXIT_OK;
  }
}
