package company.data.compactor.cli;

import company.data.compactor.config.InputKey;
import company.data.compactor.config.MaintenanceRequest;
import company.data.compactor.duckdb.DuckDbConnections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code compactor run}: the whole maintenance pipeline on one table. */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Run the maintenance pipeline on one table: (demo seed,) inspect, probe, compact, vacuum,"
          + " log cleanup (checkpoint, expired log files; dry run with vacuum's), report. Every option is a request input in kebab case, with the same default. All "
          + "inputs are validated first; any broken rule is reported (all at once) and nothing is "
          + "touched."
    })
final class RunCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;
  @ParentCommand private Main main;
  @Mixin private CommonOptions common;

  @Option(
      names = "--table-uri",
      paramLabel = "URI",
      description =
          "Local path (relative to --work-dir), file: or s3:// URI. Default: "
              + MaintenanceRequest.DEFAULT_TABLE_URI)
  String tableUri;

  @Option(
      names = "--demo-mode",
      paramLabel = "true|false",
      description =
          "Seed a fresh demo table at --table-uri first (replaces only a previous demo"
              + " table; refuses anything else). Default: "
              + MaintenanceRequest.DEFAULT_DEMO_MODE)
  String demoMode;

  @Mixin private GateFlags gate;
  @Mixin private CompactionFlags compaction;
  @Mixin private VacuumFlags vacuum;

  @Option(
      names = "--latency-sla-ms",
      paramLabel = "X",
      description =
          "Read-latency SLA for the probe (> 0). Default: "
              + MaintenanceRequest.DEFAULT_LATENCY_SLA_MS)
  String latencySlaMs;

  @Option(
      names = "--notify-slack",
      paramLabel = "true|false",
      description = "Send the Slack summary. Default: " + MaintenanceRequest.DEFAULT_NOTIFY_SLACK)
  String notifySlack;

  @Override
  public Integer call() {
    // The probe and the rewrite read with DuckDB: its library loads beside the validation, the
    // lease and the snapshot's load (wasted when the run stops before; it touches no file).
    DuckDbConnections.warmUpInBackground();
    Map<String, Object> inputs = new LinkedHashMap<>();
    CliInputs.put(inputs, InputKey.TABLE_URI, tableUri);
    CliInputs.put(inputs, InputKey.DEMO_MODE, demoMode);
    gate.putInto(inputs);
    compaction.putInto(inputs);
    vacuum.putInto(inputs);
    CliInputs.put(inputs, InputKey.LATENCY_SLA_MS, latencySlaMs);
    CliInputs.put(inputs, InputKey.NOTIFY_SLACK, notifySlack);
    return CliInputs.runLeased(spec, main, common, inputs, (pipeline, run) -> pipeline.run(run));
  }
}
