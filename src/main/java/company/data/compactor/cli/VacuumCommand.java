package company.data.compactor.cli;

import company.data.compactor.config.InputKey;
import company.data.compactor.config.MaintenanceRequest;
import company.data.compactor.config.RequestReader;
import company.data.compactor.config.TableUris;
import company.data.compactor.model.TableLocation;
import company.data.compactor.report.MaintenanceReport;
import company.data.compactor.wiring.Wiring;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code compactor vacuum}: only the vacuum step. */
@Command(
    name = "vacuum",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Delete files no reader can still need: lite mode removes files whose tombstones are older",
      "than the retention; full mode also removes untracked files older than it. Retention is the",
      "longest of 168 h (a floor with no override), --vacuum-retention-hours and the table's",
      "delta.deletedFileRetentionDuration. Dry run (the default) lists candidates, deletes nothing."
    })
final class VacuumCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;
  @ParentCommand private Main main;
  @Mixin private CommonOptions common;

  @Option(names = "--table-uri", paramLabel = "URI", required = true,
      description = "Local path (relative to --work-dir), file: or s3:// URI.")
  String tableUri;

  @Option(names = "--vacuum-retention-hours", paramLabel = "H",
      description = "Keep obsolete files at least this long (>= 168, no override). Default: "
          + MaintenanceRequest.MIN_VACUUM_RETENTION_HOURS)
  String vacuumRetentionHours;

  @Option(names = "--vacuum-dry-run", paramLabel = "true|false",
      description = "List candidates without deleting. Default: " + MaintenanceRequest.DEFAULT_VACUUM_DRY_RUN)
  String vacuumDryRun;

  @Option(names = "--vacuum-mode", paramLabel = "lite|full",
      description = "lite: expired tombstones; full: also untracked files. Default: "
          + MaintenanceRequest.DEFAULT_VACUUM_MODE)
  String vacuumMode;

  @Override
  public Integer call() {
    Map<String, Object> inputs = new LinkedHashMap<>();
    inputs.put(InputKey.TABLE_URI.key(), tableUri);
    inputs.put(InputKey.DEMO_MODE.key(), false);
    if (vacuumRetentionHours != null) {
      inputs.put(InputKey.VACUUM_RETENTION_HOURS.key(), vacuumRetentionHours);
    }
    if (vacuumDryRun != null) {
      inputs.put(InputKey.VACUUM_DRY_RUN.key(), vacuumDryRun);
    }
    if (vacuumMode != null) {
      inputs.put(InputKey.VACUUM_MODE.key(), vacuumMode);
    }
    MaintenanceRequest request = RequestReader.read(inputs);
    TableLocation location = TableUris.resolve(request, common.workDir());
    MaintenanceReport report =
        Wiring.pipeline(location, common.workDir(), main.environment()).vacuumOnly(request, location);
    Output.print(spec, common, report);
    return Main.EXIT_OK;
  }
}
