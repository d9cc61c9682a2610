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

/** {@code compactor run}: the whole maintenance pipeline on one table. */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Run the maintenance pipeline on one table: (demo seed,) inspect, probe, compact, vacuum, report.",
      "Every option is a request input in kebab case, with the same default. All inputs are",
      "validated first; any broken rule is reported (all at once) and nothing is touched."
    })
final class RunCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;
  @picocli.CommandLine.ParentCommand private Main main;
  @Mixin private CommonOptions common;

  @Option(names = "--table-uri", paramLabel = "URI",
      description = "Local path (relative to --work-dir), file: or s3:// URI. Default: "
          + MaintenanceRequest.DEFAULT_TABLE_URI)
  String tableUri;

  @Option(names = "--demo-mode", paramLabel = "true|false",
      description = "Seed a fresh demo table at --table-uri first (replaces only a previous demo"
          + " table; refuses anything else). Default: " + MaintenanceRequest.DEFAULT_DEMO_MODE)
  String demoMode;

  @Option(names = "--small-file-threshold-mb", paramLabel = "N",
      description = "Files smaller than this are small (> 0). Default: "
          + MaintenanceRequest.DEFAULT_SMALL_FILE_THRESHOLD_MB)
  String smallFileThresholdMb;

  @Option(names = "--compaction-ratio-threshold-pct", paramLabel = "X",
      description = "Compact when the small-file ratio reaches this (0 < X <= 100). Default: "
          + MaintenanceRequest.DEFAULT_COMPACTION_RATIO_THRESHOLD_PCT)
  String compactionRatioThresholdPct;

  @Option(names = "--target-file-size-mb", paramLabel = "N",
      description = "Size of rewritten files (> 0). Default: "
          + MaintenanceRequest.DEFAULT_TARGET_FILE_SIZE_MB)
  String targetFileSizeMb;

  @Option(names = "--z-order-columns", paramLabel = "a,b",
      description = "Comma-separated non-partition columns to cluster by; '' for bin-packing only."
          + " Default: customer_id")
  String zOrderColumns;

  @Option(names = "--vacuum-retention-hours", paramLabel = "H",
      description = "Keep obsolete files at least this long (>= 168, no override). Default: "
          + MaintenanceRequest.MIN_VACUUM_RETENTION_HOURS)
  String vacuumRetentionHours;

  @Option(names = "--vacuum-dry-run", paramLabel = "true|false",
      description = "List vacuum candidates without deleting. Default: "
          + MaintenanceRequest.DEFAULT_VACUUM_DRY_RUN)
  String vacuumDryRun;

  @Option(names = "--latency-sla-ms", paramLabel = "X",
      description = "Read-latency SLA for the probe (> 0). Default: "
          + MaintenanceRequest.DEFAULT_LATENCY_SLA_MS)
  String latencySlaMs;

  @Option(names = "--notify-slack", paramLabel = "true|false",
      description = "Send the Slack summary. Default: " + MaintenanceRequest.DEFAULT_NOTIFY_SLACK)
  String notifySlack;

  @Option(names = "--partition-filter", paramLabel = "EXPR",
      description = "Compact only partitions matching a predicate on partition columns, e.g."
          + " \"event_date >= '2026-10-18'\". Default: every partition")
  String partitionFilter;

  @Option(names = "--max-bytes-per-run", paramLabel = "BYTES",
      description = "Rewrite at most this many input bytes; the rest waits for the next run"
          + " (reported as bytes_deferred). Default: no limit")
  String maxBytesPerRun;

  @Option(names = "--vacuum-mode", paramLabel = "lite|full",
      description = "lite: files whose tombstones expired; full: also untracked files. Default: "
          + MaintenanceRequest.DEFAULT_VACUUM_MODE)
  String vacuumMode;

  @Override
  public Integer call() {
    Map<String, Object> inputs = new LinkedHashMap<>();
    put(inputs, InputKey.TABLE_URI, tableUri);
    put(inputs, InputKey.DEMO_MODE, demoMode);
    put(inputs, InputKey.SMALL_FILE_THRESHOLD_MB, smallFileThresholdMb);
    put(inputs, InputKey.COMPACTION_RATIO_THRESHOLD_PCT, compactionRatioThresholdPct);
    put(inputs, InputKey.TARGET_FILE_SIZE_MB, targetFileSizeMb);
    put(inputs, InputKey.Z_ORDER_COLUMNS, zOrderColumns);
    put(inputs, InputKey.VACUUM_RETENTION_HOURS, vacuumRetentionHours);
    put(inputs, InputKey.VACUUM_DRY_RUN, vacuumDryRun);
    put(inputs, InputKey.LATENCY_SLA_MS, latencySlaMs);
    put(inputs, InputKey.NOTIFY_SLACK, notifySlack);
    put(inputs, InputKey.PARTITION_FILTER, partitionFilter);
    put(inputs, InputKey.MAX_BYTES_PER_RUN, maxBytesPerRun);
    put(inputs, InputKey.VACUUM_MODE, vacuumMode);
    MaintenanceRequest request = RequestReader.read(inputs);
    TableLocation location = TableUris.resolve(request, common.workDir());
    MaintenanceReport report = Wiring.pipeline(location, common.workDir(), main.environment()).run(request, location);
    Output.print(spec, common, report);
    return Main.EXIT_OK;
  }

  private static void put(Map<String, Object> inputs, InputKey key, String value) {
    if (value != null) {
      inputs.put(key.key(), value);
    }
  }
}
