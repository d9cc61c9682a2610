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
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code compactor inspect}: fragmentation per partition, read-only. */
@Command(
    name = "inspect",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Measure small-file fragmentation of a table per partition. Reads only: writes no file,",
      "no commit and no telemetry."
    })
final class InspectCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;
  @picocli.CommandLine.ParentCommand private Main main;
  @Mixin private CommonOptions common;

  @Option(names = "--table-uri", paramLabel = "URI", required = true,
      description = "Local path (relative to --work-dir), file: or s3:// URI.")
  String tableUri;

  @Option(names = "--small-file-threshold-mb", paramLabel = "N",
      description = "Files smaller than this are small (> 0). Default: "
          + MaintenanceRequest.DEFAULT_SMALL_FILE_THRESHOLD_MB)
  String smallFileThresholdMb;

  @Option(names = "--compaction-ratio-threshold-pct", paramLabel = "X",
      description = "compaction_required when the small-file ratio reaches this (0 < X <= 100)."
          + " Default: " + MaintenanceRequest.DEFAULT_COMPACTION_RATIO_THRESHOLD_PCT)
  String compactionRatioThresholdPct;

  @Override
  public Integer call() {
    Map<String, Object> inputs = new LinkedHashMap<>();
    inputs.put(InputKey.TABLE_URI.key(), tableUri);
    inputs.put(InputKey.DEMO_MODE.key(), false);
    if (smallFileThresholdMb != null) {
      inputs.put(InputKey.SMALL_FILE_THRESHOLD_MB.key(), smallFileThresholdMb);
    }
    if (compactionRatioThresholdPct != null) {
      inputs.put(InputKey.COMPACTION_RATIO_THRESHOLD_PCT.key(), compactionRatioThresholdPct);
    }
    MaintenanceRequest request = RequestReader.read(inputs);
    TableLocation location = TableUris.resolve(request, common.workDir());
    MaintenanceReport report =
        Wiring.pipeline(location, common.workDir(), main.environment()).inspectOnly(request, location);
    Output.print(spec, common, report);
    return Main.EXIT_OK;
  }
}
