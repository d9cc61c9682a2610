package company.data.compactor.cli;

import company.data.compactor.admission.Admission;
import company.data.compactor.admission.AdmittedRun;
import company.data.compactor.admission.Trigger;
import company.data.compactor.config.InputKey;
import company.data.compactor.pipeline.MaintenancePipeline;
import company.data.compactor.report.MaintenanceReport;
import company.data.compactor.report.RunState;
import company.data.compactor.wiring.LeasedRuns;
import company.data.compactor.wiring.Wiring;
import java.time.Clock;
import java.util.Map;
import java.util.UUID;
import picocli.CommandLine.Model.CommandSpec;

/** What every command does with its flags: admit them as request inputs, run, print. */
final class CliInputs {

  private CliInputs() {}

  /** Adds a flag's raw value under its input key; absent flags take the input's default. */
  static void put(Map<String, Object> inputs, InputKey key, String value) {
    if (value != null) {
      inputs.put(key.key(), value);
    }
  }

  /** The command line's admission of {@code inputs}: every violation at once, nothing touched. */
  static AdmittedRun admit(Main main, CommonOptions common, Map<String, Object> inputs) {
    return Admission.configuredBy(main.environment(), common.workDir()).admit(Trigger.CLI, inputs);
  }

  /**
   * Admits {@code inputs}, wires the pipeline for the table and runs {@code operation}, then prints
   * the report (for the read-only commands, which hold no lease).
   */
  static int run(
      CommandSpec spec,
      Main main,
      CommonOptions common,
      Map<String, Object> inputs,
      LeasedRuns.Operation operation) {
    AdmittedRun run = admit(main, common, inputs);
    MaintenancePipeline pipeline =
        Wiring.pipeline(run.location(), common.workDir(), main.environment());
    Output.print(spec, common, operation.apply(pipeline, run));
    return Main.EXIT_OK;
  }

  /**
   * As {@link #run}, for commands that may change the table: the run holds the table's lease (see
   * {@link LeasedRuns}), so a second run on the same table is refused while it works, from any work
   * directory. A release failure is reported in {@code lease_release_status} and, like a telemetry
   * failure, gives exit code {@value Main#EXIT_REPORTING_FAILED} with the report printed; a run
   * fenced because another run took its lease over prints its report and exits {@value
   * Main#EXIT_FAILURE}.
   */
  static int runLeased(
      CommandSpec spec,
      Main main,
      CommonOptions common,
      Map<String, Object> inputs,
      LeasedRuns.Operation operation) {
    AdmittedRun run = admit(main, common, inputs);
    LeasedRuns runs = new LeasedRuns(common.workDir(), main.environment(), Clock.systemUTC());
    String executionId = UUID.randomUUID().toString();
    MaintenanceReport report = runs.run(runs.take(run, executionId), operation);
    Output.print(spec, common, report);
    if (RunState.fenced(report)) {
      return Main.EXIT_FAILURE;
    }
    return report.delivery() != null && report.delivery().reportingFailed()
        ? Main.EXIT_REPORTING_FAILED
        : Main.EXIT_OK;
  }
}
