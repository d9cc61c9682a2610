package company.data.compactor.report;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.List;
import java.util.Map;

/**
 * The versioned result of one run. Serialised with snake-case names ({@link ReportJson}), which are
 * a contract: later versions add fields, never rename them.
 *
 * @param schemaVersion version of this document's shape, {@value #SCHEMA_VERSION}
 * @param executionId unique id of the run
 * @param command {@code run} or {@code inspect}
 * @param evaluatedAt ISO-8601 UTC time the run started
 * @param durationMs wall time of the run
 * @param tableUri the table's normalised URI
 * @param tableVersion the table version inspected
 * @param demoMode whether the demo table was seeded first
 * @param inputs the request's inputs after defaults, by snake-case name
 * @param totalFiles active files
 * @param totalSmallFiles active files below {@code small_file_threshold_mb}
 * @param smallFileRatioPct small files as a percentage of files
 * @param avgFileSizeMb mean file size in MB
 * @param totalSizeMb total size in MB
 * @param totalRows rows from file stats, null when some file lacks them
 * @param filesWithoutStats files without a row count in their stats
 * @param deletedRows rows the active files' deletion vectors delete
 * @param deletedRowsRatio deleted rows over the rows the files hold ({@code numRecords}, which
 *     still counts them); null when some file has no row count
 * @param compactionRequired whether some partition is compactable: the small-file ratio of the
 *     table and of the partition reach {@code compaction_ratio_threshold_pct} and merging its small
 *     files yields fewer files (or its deletion vectors delete more than 5 % of its rows); the
 *     partitions' {@code merge_verdict} says which
 * @param partitions per-partition figures
 * @param latency the read-latency probe before and after compaction (fields unwrapped to the top
 *     level); null for {@code inspect} and {@code plan}
 * @param compaction what compaction planned and did (fields unwrapped to the top level); null for
 *     {@code inspect}
 * @param vacuum what vacuum found and deleted (unwrapped to the top level); null when it did not
 *     run
 * @param logCleanup the checkpoint and the expired log files ({@code log_cleanup}); null when the
 *     step did not run
 * @param zorderSkipping how well a point lookup on the Z-order columns skips files before and
 *     after; null when no Z-order rewrite was committed
 * @param fileSizeHistogram file sizes per partition before and after; null for {@code plan}
 * @param delivery the HTML page and Slack notification (unwrapped to the top level); null for
 *     {@code plan} and {@code inspect}
 * @param steps what each step of the run did
 * @param summary a short human summary
 * @param sweep what the run's sweep removed of earlier, killed runs (an object of its own); null
 *     for {@code plan} and {@code inspect}, which do not sweep
 * @param timingsMs where the command's time went, phase by phase ({@code timings_ms}); null only
 *     while the report is being built
 * @param execution where compaction executed, in process or across the state machine (unwrapped to
 *     the top level, {@code execution_mode} ...); null where the entry point does not decide (the
 *     CLI, {@code plan}, {@code inspect})
 */
public record MaintenanceReport(
    int schemaVersion,
    String executionId,
    String command,
    String evaluatedAt,
    long durationMs,
    String tableUri,
    long tableVersion,
    boolean demoMode,
    Map<String, Object> inputs,
    int totalFiles,
    int totalSmallFiles,
    double smallFileRatioPct,
    double avgFileSizeMb,
    double totalSizeMb,
    Long totalRows,
    int filesWithoutStats,
    long deletedRows,
    Double deletedRowsRatio,
    boolean compactionRequired,
    List<PartitionReport> partitions,
    @JsonUnwrapped LatencyReport latency,
    @JsonUnwrapped CompactionReport compaction,
    @JsonUnwrapped VacuumReport vacuum,
    LogCleanupReport logCleanup,
    ZOrderSkippingReport zorderSkipping,
    FileSizeHistogram fileSizeHistogram,
    @JsonUnwrapped DeliveryReport delivery,
    List<StepOutcome> steps,
    String summary,
    SweepReport sweep,
    PhaseTimings timingsMs,
    @JsonUnwrapped ExecutionReport execution) {

  /** The current {@code schema_version}. */
  public static final int SCHEMA_VERSION = 1;

  public MaintenanceReport {
    java.util.Objects.requireNonNull(partitions, "partitions");
    partitions = List.copyOf(partitions);
    steps = List.copyOf(steps);
  }

  /**
   * This report with {@code skipping} in place of its own, its sentence (point-lookup files and
   * bytes before and after) appended to the summary.
   */
  public MaintenanceReport withZOrderSkipping(ZOrderSkippingReport skipping) {
    return with(
        logCleanup,
        skipping,
        delivery,
        skipping == null ? summary : summary + " " + skipping.sentence(),
        sweep,
        timingsMs,
        execution);
  }

  /**
   * This report with the log hygiene section {@code logCleanup}, its {@code sentence} appended to
   * the summary.
   */
  public MaintenanceReport withLogCleanup(LogCleanupReport logCleanup, String sentence) {
    return with(
        logCleanup,
        zorderSkipping,
        delivery,
        summary + " " + sentence,
        sweep,
        timingsMs,
        execution);
  }

  /**
   * This report with what became of the run's lease: {@code failed} with {@code releaseError} when
   * it could not be released, else {@code lost} with {@code lost} when another run took it over
   * while this one worked (the run was fenced), else {@code released}; unchanged for reports
   * without a delivery section ({@code plan}, {@code inspect}).
   */
  public MaintenanceReport withLeaseOutcome(
      java.util.Optional<String> releaseError, java.util.Optional<String> lost) {
    if (delivery == null) {
      return this;
    }
    if (releaseError.isPresent()) {
      return withDelivery(delivery.withLeaseRelease("failed", releaseError.get()));
    }
    return withDelivery(
        lost.map(why -> delivery.withLeaseRelease("lost", why))
            .orElseGet(() -> delivery.withLeaseRelease("released", null)));
  }

  /** This report with {@code sweep} in place of its own. */
  public MaintenanceReport withSweep(SweepReport sweep) {
    return with(logCleanup, zorderSkipping, delivery, summary, sweep, timingsMs, execution);
  }

  /** This report with {@code timings} as its {@code timings_ms}. */
  public MaintenanceReport withTimings(PhaseTimings timings) {
    return with(logCleanup, zorderSkipping, delivery, summary, sweep, timings, execution);
  }

  /** This report with {@code delivery} in place of its own. */
  public MaintenanceReport withDelivery(DeliveryReport delivery) {
    return with(logCleanup, zorderSkipping, delivery, summary, sweep, timingsMs, execution);
  }

  /** This report with {@code execution} in place of its own. */
  public MaintenanceReport withExecution(ExecutionReport execution) {
    return with(logCleanup, zorderSkipping, delivery, summary, sweep, timingsMs, execution);
  }

  /** This report with the sections the run adds after the fact replaced (the one copy of it). */
  private MaintenanceReport with(
      LogCleanupReport logCleanup,
      ZOrderSkippingReport zorderSkipping,
      DeliveryReport delivery,
      String summary,
      SweepReport sweep,
      PhaseTimings timingsMs,
      ExecutionReport execution) {
    return new MaintenanceReport(
        schemaVersion,
        executionId,
        command,
        evaluatedAt,
        durationMs,
        tableUri,
        tableVersion,
        demoMode,
        inputs,
        totalFiles,
        totalSmallFiles,
        smallFileRatioPct,
        avgFileSizeMb,
        totalSizeMb,
        totalRows,
        filesWithoutStats,
        deletedRows,
        deletedRowsRatio,
        compactionRequired,
        partitions,
        latency,
        compaction,
        vacuum,
        logCleanup,
        zorderSkipping,
        fileSizeHistogram,
        delivery,
        steps,
        summary,
        sweep,
        timingsMs,
        execution);
  }
}
