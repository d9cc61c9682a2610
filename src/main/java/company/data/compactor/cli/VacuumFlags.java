package company.data.compactor.cli;

import company.data.compactor.config.InputKey;
import company.data.compactor.config.MaintenanceRequest;
import java.util.Map;
import picocli.CommandLine.Option;

/** The vacuum flags: run, vacuum. */
final class VacuumFlags {

  @Option(
      names = "--vacuum-retention-hours",
      paramLabel = "H",
      description =
          "Keep obsolete files at least this long (>= 168, no override). Default: "
              + company.data.compactor.model.SafetyLimits.RETENTION_FLOOR_HOURS)
  String vacuumRetentionHours;

  @Option(
      names = "--vacuum-dry-run",
      paramLabel = "true|false",
      description =
          "List vacuum candidates without deleting. Default: "
              + MaintenanceRequest.DEFAULT_VACUUM_DRY_RUN)
  String vacuumDryRun;

  @Option(
      names = "--vacuum-mode",
      paramLabel = "lite|full",
      description =
          "lite: files whose tombstones expired; full: also untracked files. Default: "
              + MaintenanceRequest.DEFAULT_VACUUM_MODE)
  String vacuumMode;

  void putInto(Map<String, Object> inputs) {
    CliInputs.put(inputs, InputKey.VACUUM_RETENTION_HOURS, vacuumRetentionHours);
    CliInputs.put(inputs, InputKey.VACUUM_DRY_RUN, vacuumDryRun);
    CliInputs.put(inputs, InputKey.VACUUM_MODE, vacuumMode);
  }
}
