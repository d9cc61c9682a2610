package company.data.compactor.cli;

import company.data.compactor.config.InputKey;
import company.data.compactor.config.MaintenanceRequest;
import java.util.Map;
import picocli.CommandLine.Option;

/** The compaction flags: run, plan. */
final class CompactionFlags {

  @Option(
      names = "--target-file-size-mb",
      paramLabel = "N",
      description =
          "Size of rewritten files (> 0). Default: "
              + MaintenanceRequest.DEFAULT_TARGET_FILE_SIZE_MB)
  String targetFileSizeMb;

  @Option(
      names = "--z-order-columns",
      paramLabel = "a,b",
      description =
          "Comma-separated non-partition columns to cluster by; '' for bin-packing only."
              + " Default: customer_id")
  String zOrderColumns;

  @Option(
      names = "--partition-filter",
      paramLabel = "EXPR",
      description =
          "Compact only partitions matching a predicate on partition columns, e.g."
              + " \"event_date >= '2026-10-18'\". Default: every partition")
  String partitionFilter;

  @Option(
      names = "--max-bytes-per-run",
      paramLabel = "BYTES",
      description =
          "Rewrite at most this many input bytes; the rest waits for the next run"
              + " (reported as bytes_deferred). Default: no limit")
  String maxBytesPerRun;

  @Option(
      names = "--max-zorder-group-bytes",
      paramLabel = "BYTES",
      description =
          "Z-order at most this many input bytes as one globally ordered group (inputs, outputs"
              + " and sort spill must fit the scratch disk). Default: 2147483648 (2 GiB)")
  String maxZOrderGroupBytes;

  void putInto(Map<String, Object> inputs) {
    CliInputs.put(inputs, InputKey.TARGET_FILE_SIZE_MB, targetFileSizeMb);
    CliInputs.put(inputs, InputKey.Z_ORDER_COLUMNS, zOrderColumns);
    CliInputs.put(inputs, InputKey.PARTITION_FILTER, partitionFilter);
    CliInputs.put(inputs, InputKey.MAX_BYTES_PER_RUN, maxBytesPerRun);
    CliInputs.put(inputs, InputKey.MAX_ZORDER_GROUP_BYTES, maxZOrderGroupBytes);
  }
}
