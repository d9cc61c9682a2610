package company.data.compactor.pipeline;

import company.data.compactor.config.InputKey;
import company.data.compactor.config.MaintenanceRequest;
import company.data.compactor.config.RequestRules;
import company.data.compactor.demo.DemoTable;
import company.data.compactor.error.Errors;
import company.data.compactor.error.Violation;
import company.data.compactor.inspect.TableHealth;
import company.data.compactor.inspect.TableInspector;
import company.data.compactor.model.ByteSizes;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.report.MaintenanceReport;
import company.data.compactor.report.StepOutcome;
import java.lang.System.Logger.Level;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One maintenance run, in the design's order: validate, seed the demo (when asked), inspect, and
 * report. Later steps (latency probe, compaction, vacuum) join here. Depends on ports only.
 */
public final class MaintenancePipeline {

  private static final System.Logger LOG = System.getLogger(MaintenancePipeline.class.getName());

  private final PipelinePorts ports;

  public MaintenancePipeline(PipelinePorts ports) {
    this.ports = ports;
  }

  /**
   * Runs maintenance on the table at {@code location} and records the report in telemetry.
   *
   * @throws company.data.compactor.error.CompactorException INVALID_REQUEST (nothing touched) when
   *     the request breaks a rule, including z-order columns the table does not have; other kinds
   *     when the work fails
   */
  public MaintenanceReport run(MaintenanceRequest request, TableLocation location) {
    Instant started = ports.clock().instant();
    String executionId = ports.executionIds().get();
    refuseIfInvalid(RequestRules.violations(request));
    List<StepOutcome> steps = new ArrayList<>();
    if (request.demoMode()) {
      // The demo schema is known before seeding, so a bad z-order column touches nothing.
      refuseIfInvalid(RequestRules.violationsAgainst(request, DemoTable.SCHEMA));
      long version = ports.demoSeeder().seed(location);
      steps.add(
          StepOutcome.done(
              "seed",
              "fresh demo table: "
                  + DemoTable.APPENDS
                  + " appends of "
                  + DemoTable.ROWS_PER_APPEND
                  + " rows, version "
                  + version));
    } else {
      steps.add(StepOutcome.skipped("seed", "demo_mode is false"));
    }
    TableSnapshot snapshot = ports.tables().loadLatest(location);
    refuseIfInvalid(RequestRules.violationsAgainst(request, snapshot.schema()));
    TableHealth health = inspect(request, snapshot);
    steps.add(StepOutcome.done("inspect", health.totalFiles() + " active files at version " + health.tableVersion()));
    steps.add(StepOutcome.notAvailable("probe", "the read-latency probe is not part of this build yet"));
    if (health.compactionRequired()) {
      steps.add(
          StepOutcome.notAvailable(
              "compact", "compaction is required but not part of this build yet; nothing was rewritten"));
    } else {
      steps.add(StepOutcome.skipped("compact", gateLine(request, health)));
    }
    steps.add(StepOutcome.notAvailable("vacuum", "vacuum is not part of this build yet; nothing was deleted"));
    MaintenanceReport report = report("run", executionId, started, request, location, health, steps);
    ports.telemetry().record(report);
    return report;
  }

  /**
   * Inspects the table at {@code location} without changing anything or recording telemetry;
   * {@code demo_mode} is ignored.
   */
  public MaintenanceReport inspectOnly(MaintenanceRequest request, TableLocation location) {
    Instant started = ports.clock().instant();
    String executionId = ports.executionIds().get();
    refuseIfInvalid(RequestRules.violations(request));
    TableSnapshot snapshot = ports.tables().loadLatest(location);
    TableHealth health = inspect(request, snapshot);
    List<StepOutcome> steps =
        List.of(StepOutcome.done("inspect", health.totalFiles() + " active files at version " + health.tableVersion()));
    MaintenanceRequest echoed =
        new MaintenanceRequest(
            false,
            request.tableUri(),
            request.smallFileThresholdMb(),
            request.compactionRatioThresholdPct(),
            request.targetFileSizeMb(),
            request.zOrderColumns(),
            request.vacuumRetentionHours(),
            request.vacuumDryRun(),
            request.latencySlaMs(),
            request.notifySlack());
    return report("inspect", executionId, started, echoed, location, health, steps);
  }

  private TableHealth inspect(MaintenanceRequest request, TableSnapshot snapshot) {
    TableHealth health =
        TableInspector.inspect(
            snapshot,
            ByteSizes.mbToBytes(request.smallFileThresholdMb()),
            request.compactionRatioThresholdPct());
    LOG.log(
        Level.INFO,
        "inspected: table={0} version={1} partitions={2} files={3} small={4} ratio={5}% rows={6}",
        snapshot.location(),
        health.tableVersion(),
        health.partitions().size(),
        health.totalFiles(),
        health.totalSmallFiles(),
        health.smallFileRatioPct(),
        health.totalRows());
    return health;
  }

  private static void refuseIfInvalid(List<Violation> violations) {
    if (!violations.isEmpty()) {
      throw Errors.invalidRequest(violations);
    }
  }

  private MaintenanceReport report(
      String command,
      String executionId,
      Instant started,
      MaintenanceRequest request,
      TableLocation location,
      TableHealth health,
      List<StepOutcome> steps) {
    long durationMs = Math.max(0, ports.clock().millis() - started.toEpochMilli());
    return new MaintenanceReport(
        MaintenanceReport.SCHEMA_VERSION,
        executionId,
        command,
        started.toString(),
        durationMs,
        location.uri(),
        health.tableVersion(),
        request.demoMode(),
        inputs(request, location),
        health.totalFiles(),
        health.totalSmallFiles(),
        health.smallFileRatioPct(),
        health.avgFileSizeMb(),
        health.totalSizeMb(),
        health.totalRows(),
        health.filesWithoutStats(),
        health.compactionRequired(),
        health.partitions(),
        steps,
        Summaries.of(location, health, steps, request));
  }

  private static Map<String, Object> inputs(MaintenanceRequest request, TableLocation location) {
    Map<String, Object> inputs = new LinkedHashMap<>();
    inputs.put(InputKey.DEMO_MODE.key(), request.demoMode());
    inputs.put(InputKey.TABLE_URI.key(), location.uri());
    inputs.put(InputKey.SMALL_FILE_THRESHOLD_MB.key(), request.smallFileThresholdMb());
    inputs.put(InputKey.COMPACTION_RATIO_THRESHOLD_PCT.key(), request.compactionRatioThresholdPct());
    inputs.put(InputKey.TARGET_FILE_SIZE_MB.key(), request.targetFileSizeMb());
    inputs.put(InputKey.Z_ORDER_COLUMNS.key(), request.zOrderColumns());
    inputs.put(InputKey.VACUUM_RETENTION_HOURS.key(), request.vacuumRetentionHours());
    inputs.put(InputKey.VACUUM_DRY_RUN.key(), request.vacuumDryRun());
    inputs.put(InputKey.LATENCY_SLA_MS.key(), request.latencySlaMs());
    inputs.put(InputKey.NOTIFY_SLACK.key(), request.notifySlack());
    return inputs;
  }

  static String gateLine(MaintenanceRequest request, TableHealth health) {
    return String.format(
        Locale.ROOT,
        "small-file ratio %.2f%% is below the %.2f%% gate",
        health.smallFileRatioPct(),
        request.compactionRatioThresholdPct());
  }
}
