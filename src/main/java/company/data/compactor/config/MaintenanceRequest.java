package company.data.compactor.config;

import company.data.compactor.model.SafetyLimits;
import java.util.List;
import java.util.Objects;

/**
 * Every input of one maintenance run, with the blueprint's names and defaults. Build one from raw
 * key/value inputs with {@link RequestReader}, which applies the defaults and reports every broken
 * rule at once; {@link #defaults()} is the request with nothing overridden.
 *
 * @param demoMode {@code demo_mode}, default {@value #DEFAULT_DEMO_MODE}: seed a fresh demo table
 *     at {@code table_uri} before the run
 * @param tableUri {@code table_uri}, default {@value #DEFAULT_TABLE_URI}: local path (relative to
 *     the work directory), {@code file:} or {@code s3://} URI
 * @param smallFileThresholdMb {@code small_file_threshold_mb}, default {@value
 *     #DEFAULT_SMALL_FILE_THRESHOLD_MB}: files below this size are small
 * @param compactionRatioThresholdPct {@code compaction_ratio_threshold_pct}, default {@value
 *     #DEFAULT_COMPACTION_RATIO_THRESHOLD_PCT}: small-file ratio at which compaction runs
 * @param targetFileSizeMb {@code target_file_size_mb}, default {@value
 *     #DEFAULT_TARGET_FILE_SIZE_MB}: size of rewritten files
 * @param zOrderColumns {@code z_order_columns}, default {@code ["customer_id"]}; empty means
 *     bin-packing only
 * @param vacuumRetentionHours {@code vacuum_retention_hours}, default {@value
 *     company.data.compactor.model.SafetyLimits#RETENTION_FLOOR_HOURS}, never below it
 * @param vacuumDryRun {@code vacuum_dry_run}, default {@value #DEFAULT_VACUUM_DRY_RUN}
 * @param latencySlaMs {@code latency_sla_ms}, default {@value #DEFAULT_LATENCY_SLA_MS}
 * @param notifySlack {@code notify_slack}, default {@value #DEFAULT_NOTIFY_SLACK}
 * @param partitionFilter {@code partition_filter}, default empty (every partition): a predicate on
 *     partition columns limiting what compaction touches, e.g. {@code event_date >= '2026-10-18'}
 * @param maxBytesPerRun {@code max_bytes_per_run}, default empty (no limit): input bytes one run
 *     may rewrite; the rest waits for the next run
 * @param vacuumMode {@code vacuum_mode}, default {@code lite}: {@code lite} deletes files whose
 *     tombstones expired, {@code full} also untracked files older than the retention
 * @param maxZOrderGroupBytes {@code max_zorder_group_bytes}, default 2 GiB: input bytes one Z-order
 *     group may read; rows are globally ordered within a group, and its inputs, outputs and sort
 *     spill must fit the scratch disk
 * @param zOrderColumnsSource whether {@code z_order_columns} was given or is the default: a default
 *     naming a column the table lacks means bin-packing, a given one is an error
 */
public record MaintenanceRequest(
    boolean demoMode,
    String tableUri,
    double smallFileThresholdMb,
    double compactionRatioThresholdPct,
    double targetFileSizeMb,
    List<String> zOrderColumns,
    int vacuumRetentionHours,
    boolean vacuumDryRun,
    double latencySlaMs,
    boolean notifySlack,
    String partitionFilter,
    java.util.OptionalLong maxBytesPerRun,
    String vacuumMode,
    long maxZOrderGroupBytes,
    Source zOrderColumnsSource) {

  /** Where an input's value came from. */
  public enum Source {
    /** Given by the caller. */
    GIVEN,
    /** The documented default, the caller said nothing. */
    DEFAULT
  }

  public static final long DEFAULT_MAX_ZORDER_GROUP_BYTES = 2L << 30;
  public static final boolean DEFAULT_DEMO_MODE = true;
  public static final String DEFAULT_TABLE_URI = "demo_delta_table";
  public static final double DEFAULT_SMALL_FILE_THRESHOLD_MB = 128;
  public static final double DEFAULT_COMPACTION_RATIO_THRESHOLD_PCT = 40.0;
  public static final double DEFAULT_TARGET_FILE_SIZE_MB = 128;
  public static final List<String> DEFAULT_Z_ORDER_COLUMNS = List.of("customer_id");

  public static final boolean DEFAULT_VACUUM_DRY_RUN = true;
  public static final double DEFAULT_LATENCY_SLA_MS = 150.0;
  public static final boolean DEFAULT_NOTIFY_SLACK = false;
  public static final String DEFAULT_VACUUM_MODE = "lite";

  public MaintenanceRequest {
    Objects.requireNonNull(tableUri, "tableUri");
    Objects.requireNonNull(partitionFilter, "partitionFilter");
    Objects.requireNonNull(maxBytesPerRun, "maxBytesPerRun");
    Objects.requireNonNull(vacuumMode, "vacuumMode");
    Objects.requireNonNull(zOrderColumnsSource, "zOrderColumnsSource");
    zOrderColumns = List.copyOf(zOrderColumns);
  }

  /** The request with every input at its default. */
  public static MaintenanceRequest defaults() {
    return new MaintenanceRequest(
        DEFAULT_DEMO_MODE,
        DEFAULT_TABLE_URI,
        DEFAULT_SMALL_FILE_THRESHOLD_MB,
        DEFAULT_COMPACTION_RATIO_THRESHOLD_PCT,
        DEFAULT_TARGET_FILE_SIZE_MB,
        DEFAULT_Z_ORDER_COLUMNS,
        SafetyLimits.RETENTION_FLOOR_HOURS,
        DEFAULT_VACUUM_DRY_RUN,
        DEFAULT_LATENCY_SLA_MS,
        DEFAULT_NOTIFY_SLACK,
        "",
        java.util.OptionalLong.empty(),
        DEFAULT_VACUUM_MODE,
        DEFAULT_MAX_ZORDER_GROUP_BYTES,
        Source.DEFAULT);
  }

  /** This request with {@code demo_mode} off (for read-only commands). */
  public MaintenanceRequest withoutDemo() {
    return new MaintenanceRequest(
        false,
        tableUri,
        smallFileThresholdMb,
        compactionRatioThresholdPct,
        targetFileSizeMb,
        zOrderColumns,
        vacuumRetentionHours,
        vacuumDryRun,
        latencySlaMs,
        notifySlack,
        partitionFilter,
        maxBytesPerRun,
        vacuumMode,
        maxZOrderGroupBytes,
        zOrderColumnsSource);
  }

  /** This request with other Z-order columns. */
  public MaintenanceRequest withZOrderColumns(List<String> columns) {
    return new MaintenanceRequest(
        demoMode,
        tableUri,
        smallFileThresholdMb,
        compactionRatioThresholdPct,
        targetFileSizeMb,
        columns,
        vacuumRetentionHours,
        vacuumDryRun,
        latencySlaMs,
        notifySlack,
        partitionFilter,
        maxBytesPerRun,
        vacuumMode,
        maxZOrderGroupBytes,
        Source.GIVEN);
  }

  /**
   * This request with the default {@code z_order_columns} dropped (bin-packing only) when the table
   * lacks one of them; unchanged when the columns were given, which stay the caller's to fix.
   */
  public MaintenanceRequest fittedTo(java.util.function.Predicate<String> tableHasColumn) {
    if (zOrderColumnsSource == Source.GIVEN || zOrderColumns.stream().allMatch(tableHasColumn)) {
      return this;
    }
    return new MaintenanceRequest(
        demoMode,
        tableUri,
        smallFileThresholdMb,
        compactionRatioThresholdPct,
        targetFileSizeMb,
        List.of(),
        vacuumRetentionHours,
        vacuumDryRun,
        latencySlaMs,
        notifySlack,
        partitionFilter,
        maxBytesPerRun,
        vacuumMode,
        maxZOrderGroupBytes,
        zOrderColumnsSource);
  }
}
