package company.data.compactor.cli;

import company.data.compactor.config.InputKey;
import company.data.compactor.config.MaintenanceRequest;
import java.util.Map;
import picocli.CommandLine.Option;

/** The small-file gate flags: run, plan, inspect. */
final class GateFlags {

  @Option(
      names = "--small-file-threshold-mb",
      paramLabel = "N",
      description =
          "Files smaller than this are small (> 0). Default: "
              + MaintenanceRequest.DEFAULT_SMALL_FILE_THRESHOLD_MB)
  String smallFileThresholdMb;

  @Option(
      names = "--compaction-ratio-threshold-pct",
      paramLabel = "X",
      description =
          "Compact when the small-file ratio reaches this (0 < X <= 100). Default: "
              + MaintenanceRequest.DEFAULT_COMPACTION_RATIO_THRESHOLD_PCT)
  String compactionRatioThresholdPct;

  void putInto(Map<String, Object> inputs) {
    CliInputs.put(inputs, InputKey.SMALL_FILE_THRESHOLD_MB, smallFileThresholdMb);
    CliInputs.put(inputs, InputKey.COMPACTION_RATIO_THRESHOLD_PCT, compactionRatioThresholdPct);
  }
}
