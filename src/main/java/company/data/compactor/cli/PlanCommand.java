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

/** {@code compactor plan}: the compaction plan {@code run} would execute, without rewriting. */
@Command(
    name = "plan",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Print the compaction plan that 'run' would execute (same planner), per partition:",
      "the gate decision and the bins of adjacent small files. Reads only: no file, commit or",
      "telemetry is written."
    })
final class PlanCommand implements Callable<Integer> {

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
      description = "Compact when the small-file ratio reaches this (0 < X <= 100). Default: "
          + MaintenanceRequest.DEFAULT_COMPACTION_RATIO_THRESHOLD_PCT)
  String compactionRatioThresholdPct;

  @Option(names = "--target-file-size-mb", paramLabel = "N",
      description = "Size of rewritten files (> 0). Default: " + MaintenanceRequest.DEFAULT_TARGET_FILE_SIZE_MB)
  String targetFileSizeMb;

  @Option(names = "--z-order-columns", paramLabel = "a,b",
      description = "Checked against the table like 'run' does. Default: customer_id")
  String zOrderColumns;

  @Option(names = "--partition-filter", paramLabel = "EXPR",
      description = "Plan only partitions matching a predicate on partition columns.")
  String partitionFilter;

  @Option(names = "--max-bytes-per-run", paramLabel = "BYTES",
      description = "Input bytes one run may rewrite; the rest is deferred. Default: no limit")
  String maxBytesPerRun;

  @Override
  public Integer call() {
    Map<String, Object> inputs = new LinkedHashMap<>();
    inputs.put(InputKey.TABLE_URI.key(), tableUri);
    inputs.put(InputKey.DEMO_MODE.key(), false);
    put(inputs, InputKey.SMALL_FILE_THRESHOLD_MB, smallFileThresholdMb);
    put(inputs, InputKey.COMPACTION_RATIO_THRESHOLD_PCT, compactionRatioThresholdPct);
    put(inputs, InputKey.TARGET_FILE_SIZE_MB, targetFileSizeMb);
    put(inputs, InputKey.Z_ORDER_COLUMNS, zOrderColumns);
    put(inputs, InputKey.PARTITION_FILTER, partitionFilter);
    put(inputs, InputKey.MAX_BYTES_PER_RUN, maxBytesPerRun);
    MaintenanceRequest request = RequestReader.read(inputs);
    TableLocation location = TableUris.resolve(request, common.workDir());
    MaintenanceReport report =
        Wiring.pipeline(location, common.workDir(), main.environment())
            .planOnly(request, location);
    Output.print(spec, common, report);
    return Main.EXIT_OK;
  }

  private static void put(Map<String, Object> inputs, InputKey key, String value) {
    if (value != null) {
      inputs.put(key.key(), value);
    }
  }
}
