package company.data.compactor.pipeline;

import company.data.compactor.admission.AdmittedRun;
import company.data.compactor.compact.CompactionOptions;
import company.data.compactor.compact.CompactionPlan;
import company.data.compactor.compact.CompactionPlanner;
import company.data.compactor.compact.CompactionResult;
import company.data.compactor.compact.Layout;
import company.data.compactor.compact.PartitionDecision;
import company.data.compactor.compact.PartitionFilter;
import company.data.compactor.compact.RewriteSupport;
import company.data.compactor.config.InputKey;
import company.data.compactor.config.MaintenanceRequest;
import company.data.compactor.config.RequestRules;
import company.data.compactor.demo.DemoTable;
import company.data.compactor.duckdb.DuckDbConnections;
import company.data.compactor.error.CompactorException;
import company.data.compactor.error.Errors;
import company.data.compactor.error.Violation;
import company.data.compactor.inspect.TableHealth;
import company.data.compactor.inspect.TableInspector;
import company.data.compactor.loghygiene.LogCleanupMode;
import company.data.compactor.loghygiene.LogCleanupResult;
import company.data.compactor.model.ByteSizes;
import company.data.compactor.model.MergeRule;
import company.data.compactor.model.PartitionValues;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSchema;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.notify.FailureAlert;
import company.data.compactor.notify.NotificationResult;
import company.data.compactor.probe.ProbeResult;
import company.data.compactor.report.CompactionReport;
import company.data.compactor.report.DeliveryReport;
import company.data.compactor.report.FileSizeHistogram;
import company.data.compactor.report.LatencyReport;
import company.data.compactor.report.LogCleanupReport;
import company.data.compactor.report.MaintenanceReport;
import company.data.compactor.report.PhaseTimings.Phase;
import company.data.compactor.report.ReportJson;
import company.data.compactor.report.RunState;
import company.data.compactor.report.StepOutcome;
import company.data.compactor.report.SweepReport;
import company.data.compactor.report.VacuumReport;
import company.data.compactor.report.ZOrderSkippingReport;
import company.data.compactor.storage.StoredObject;
import company.data.compactor.sweep.Sweeper;
import company.data.compactor.telemetry.BlueprintRecord;
import company.data.compactor.vacuum.Retention;
import company.data.compactor.vacuum.VacuumMode;
import company.data.compactor.vacuum.VacuumResult;
import java.lang.System.Logger.Level;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * One maintenance run, in the design's order: validate, seed the demo (when asked), sweep what
 * killed runs left behind, inspect, probe read latency, plan and execute compaction, probe again,
 * vacuum (dry run by default), report. Depends on ports only.
 */
public final class MaintenancePipeline {

  private static final System.Logger LOG = System.getLogger(MaintenancePipeline.class.getName());

  final PipelinePorts ports;

  public MaintenancePipeline(PipelinePorts ports) {
    this.ports = ports;
  }

  /**
   * Runs maintenance on the admitted table and records the report in telemetry. The request's own
   * rules were checked by admission; what needs the table is checked here, once it is read.
   *
   * @throws company.data.compactor.error.CompactorException INVALID_REQUEST (nothing touched) when
   *     the request does not fit the table (z-order columns, the partition filter);
   *     UNSUPPORTED_TABLE (nothing written) for table features the rewrite path does not handle;
   *     other kinds when the work fails
   */
  public MaintenanceReport run(AdmittedRun run) {
    MaintenanceRequest request = run.request();
    TableLocation location = run.location();
    Instant started = ports.clock().instant();
    String executionId = ports.executionIds().get();
    try {
      return runValid(request, location, started, executionId);
    } catch (RuntimeException e) {
      alert(request, location, executionId, "run", e);
      throw e;
    }
  }

  private MaintenanceReport runValid(
      MaintenanceRequest request, TableLocation location, Instant started, String executionId) {
    // The probe and the rewrite read with DuckDB: its library loads while the log is replayed.
    DuckDbConnections.warmUpInBackground();
    ReportJson.prepareInBackground(BlueprintRecord::prepare);
    PhaseClock phases = new PhaseClock();
    List<StepOutcome> steps = new ArrayList<>();
    if (request.demoMode()) {
      // The demo schema is known before seeding, so a bad input touches nothing.
      tableChecked(request, DemoTable.SCHEMA);
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
    TableSnapshot snapshot = phases.time(Phase.INSPECT, () -> ports.tables().loadLatest(location));
    request = fittedZOrder(request, snapshot, steps);
    PartitionFilter filter = tableChecked(request, snapshot.schema());
    // A retention property the vacuum step would refuse stops the run before compaction writes.
    Retention.effective(request.vacuumRetentionHours(), snapshot.properties());
    SweepReport sweep = sweep(location, Sweeper.Scope.SCRATCH_AND_TABLE);
    MaintenanceRequest checked = request;
    TableHealth health = phases.time(Phase.INSPECT, () -> inspect(checked, snapshot));
    steps.add(inspected(health));
    List<PartitionValues> probed = mostFragmented(health, ports.probe().samplePartitions());
    List<String> probeFailures = new ArrayList<>();
    // Planned first (pure): the probe's budget is a share of a run estimated from the plan.
    CompactionPlan plan = CompactionPlanner.plan(snapshot, options(request, filter));
    long elapsedMs = Math.max(0, ports.clock().millis() - started.toEpochMilli());
    ProbeResult pre =
        phases.time(
            Phase.PROBE_BEFORE,
            () ->
                probe(
                    "before",
                    snapshot,
                    probeFailures,
                    () ->
                        ports
                            .probe()
                            .before(
                                snapshot,
                                probed,
                                elapsedMs,
                                plan.isEmpty() ? 0 : plan.bytesToRewrite())));
    CompactionReport compaction;
    if (plan.isEmpty()) {
      LOG.log(
          Level.INFO,
          "nothing to compact: table={0} version={1} ({2})",
          location,
          snapshot.version(),
          whyNothing(request, health, plan));
      steps.add(StepOutcome.skipped("compact", whyNothing(request, health, plan)));
      compaction = ReportSections.notRun(health, plan);
    } else {
      refuseUnsupportedFeatures(snapshot, "compaction");
      LOG.log(
          Level.INFO,
          "compacting: table={0} version={1} bins={2} files={3} MB={4}",
          location,
          snapshot.version(),
          plan.bins().size(),
          plan.filesToRewrite(),
          String.format(Locale.ROOT, "%.3f", ByteSizes.bytesToMb(plan.bytesToRewrite())));
      CompactionResult result = ports.compactor().execute(plan, snapshot);
      phases.add(result.timings());
      compaction = ReportSections.ran(health, plan, result);
      steps.add(compacted(request, compaction));
    }
    ProbeResult post = null;
    TableSnapshot latest = snapshot;
    if (compaction.compacted()) {
      TableSnapshot after = phases.time(Phase.COMMIT, () -> ports.tables().loadLatest(location));
      latest = after;
      if (pre != null && pre.measured()) {
        ProbeResult before = pre;
        post =
            phases.time(
                Phase.PROBE_AFTER,
                () ->
                    probe(
                        "after",
                        after,
                        probeFailures,
                        () -> ports.probe().after(after, probed, before)));
      }
    }
    LatencyReport latency =
        pre == null || !pre.measured()
            ? null
            : ReportSections.latency(
                request, ports.probe().method(), ports.probe().settings(), pre, post);
    if (!probeFailures.isEmpty()) {
      steps.add(
          StepOutcome.failed(
              "probe",
              "advisory read-latency probe failed, maintenance went on: "
                  + String.join("; ", probeFailures)));
    } else if (pre != null && !pre.measured()) {
      steps.add(
          StepOutcome.skipped(
              "probe",
              "read-latency probe skipped before compaction, maintenance went on: "
                  + pre.skipReason()));
    } else {
      steps.add(probeStep(latency));
    }
    MaintenanceRequest vacuuming = request;
    TableSnapshot vacuumed = latest;
    VacuumReport vacuum =
        compaction.fenced()
            ? skipVacuum(steps, "it lost the table's lease during compaction")
            : phases.time(Phase.VACUUM_PLAN, () -> vacuum(vacuuming, vacuumed, steps));
    LogCleanupReport logs =
        compaction.fenced()
            ? null
            : phases.time(Phase.VACUUM_PLAN, () -> logCleanup(vacuuming, vacuumed, steps));
    FileSizeHistogram sizes =
        FileSizeHistogram.of(
            snapshot.activeFiles(), compaction.compacted() ? latest.activeFiles() : null);
    ZOrderSkippingReport skipping =
        compaction.compacted() && !request.zOrderColumns().isEmpty()
            ? ReportSections.zOrderSkipping(request.zOrderColumns(), snapshot, latest, compaction)
            : null;
    MaintenanceReport built =
        report(
                "run",
                executionId,
                started,
                request,
                location,
                health,
                latency,
                compaction,
                vacuum,
                sizes,
                DeliveryReport.none(),
                steps)
            .withZOrderSkipping(skipping)
            .withSweep(sweep);
    if (logs != null) {
      built = built.withLogCleanup(logs, Summaries.logCleanup(logs));
    }
    MaintenanceRequest delivering = request;
    // The page and Slack see the phases up to delivery; the report gets the whole run's after.
    MaintenanceReport delivered = built.withTimings(phases.timings());
    MaintenanceReport report = phases.time(Phase.DELIVER, () -> deliver(delivering, delivered));
    return recorded(request, report.withTimings(phases.timings()));
  }

  /**
   * Records {@code report} in telemetry. The maintenance is done by now, so a failure (throttling,
   * an unreachable table) is reported in {@code telemetry_status}/{@code telemetry_error}, logged
   * and alerted, and never turns the run into a failure.
   */
  MaintenanceReport recorded(MaintenanceRequest request, MaintenanceReport report) {
    MaintenanceReport stored =
        report.withDelivery(report.delivery().withTelemetry("recorded", null));
    try {
      ports.telemetry().record(stored);
      return stored;
    } catch (RuntimeException e) {
      // Any failure of a side service after the work is done is reported, not thrown.
      LOG.log(
          Level.WARNING,
          "telemetry not recorded: table={0} run={1} sink={2}: {3}; the maintenance itself is done",
          report.tableUri(),
          report.executionId(),
          ports.telemetry().describe(),
          e.getMessage());
      alert(request, new TableLocation(report.tableUri()), report.executionId(), "telemetry", e);
      return report.withDelivery(report.delivery().withTelemetry("failed", e.getMessage()));
    }
  }

  /** Publishes the HTML page and sends the Slack summary; neither can fail the finished run. */
  MaintenanceReport deliver(MaintenanceRequest request, MaintenanceReport report) {
    DeliveryReport delivery = DeliveryReport.none();
    try {
      delivery = ports.publisher().publish(report).map(delivery::withHtmlReport).orElse(delivery);
    } catch (RuntimeException e) {
      LOG.log(
          Level.WARNING,
          "HTML report not written: table={0} run={1}: {2}",
          report.tableUri(),
          report.executionId(),
          e.getMessage());
    }
    if (request.notifySlack()) {
      NotificationResult sent = ports.notifier().success(report.withDelivery(delivery));
      LOG.log(
          Level.INFO,
          "slack: table={0} run={1} {2} ({3})",
          report.tableUri(),
          report.executionId(),
          sent.status(),
          sent.detail());
      delivery = delivery.withSlack(sent.status(), sent.detail(), sent.attempts());
    }
    return report.withDelivery(delivery);
  }

  /**
   * Sends a failure alert when asked for; a failed alert is logged and the original error stands.
   */
  void alert(
      MaintenanceRequest request,
      TableLocation location,
      String executionId,
      String command,
      RuntimeException error) {
    if (!request.notifySlack()) {
      return;
    }
    String errorClass =
        error instanceof CompactorException ce
            ? ce.kind().name()
            : error.getClass().getSimpleName();
    try {
      NotificationResult sent =
          ports
              .notifier()
              .failure(
                  new FailureAlert(
                      executionId,
                      location.uri(),
                      command,
                      errorClass,
                      ports.clock().instant().toString()));
      LOG.log(
          Level.INFO,
          "slack alert: table={0} run={1} {2} ({3})",
          location,
          executionId,
          sent.status(),
          sent.detail());
    } catch (RuntimeException e) {
      LOG.log(
          Level.WARNING,
          "slack alert not sent: table={0} run={1}: {2}",
          location,
          executionId,
          e.getMessage());
    }
  }

  /**
   * Plans compaction of the table at {@code location} without rewriting anything or recording
   * telemetry; {@code demo_mode} is ignored.
   */
  public MaintenanceReport planOnly(AdmittedRun run) {
    TableLocation location = run.location();
    ReadOnlyStart start = startReadOnly(run);
    PartitionFilter filter = tableChecked(start.request(), start.snapshot().schema());
    CompactionPlan plan =
        CompactionPlanner.plan(start.snapshot(), options(start.request(), filter));
    List<StepOutcome> steps =
        List.of(
            inspected(start.health()),
            StepOutcome.done(
                "plan",
                plan.isEmpty()
                    ? whyNothing(start.request(), start.health(), plan)
                    : plan.bins().size()
                        + " bins of "
                        + plan.filesToRewrite()
                        + " files; nothing was rewritten"));
    return report(
            "plan", start, location, null, ReportSections.notRun(start.health(), plan), null, steps)
        .withTimings(start.phases().timings());
  }

  /**
   * Inspects the table at {@code location} without changing anything or recording telemetry; {@code
   * demo_mode} is ignored.
   */
  public MaintenanceReport inspectOnly(AdmittedRun run) {
    TableLocation location = run.location();
    ReadOnlyStart start = startReadOnly(run);
    return report("inspect", start, location, null, null, null, List.of(inspected(start.health())))
        .withTimings(start.phases().timings());
  }

  /**
   * Runs only the vacuum step on the table at {@code location} ({@code demo_mode} ignored) and
   * records the report in telemetry.
   */
  public MaintenanceReport vacuumOnly(AdmittedRun run) {
    TableLocation location = run.location();
    // A dry run leaves the table as it is: only the work directory's scratch is swept. Otherwise
    // the table's files are listed once, for the sweep and the vacuum, on a thread of their own
    // while the snapshot loads: the listing only reads (a wait on the file system or the object
    // store), and nothing is swept or deleted until the table has been loaded and checked. The
    // wait for it, and the sweep, are timed with the vacuum.
    BackgroundListing listing =
        run.request().vacuumDryRun() ? null : BackgroundListing.start(ports.sweeper(), location);
    ReadOnlyStart start;
    try {
      start = startReadOnly(run);
      if (listing != null) {
        // Refused before the sweep: a table vacuum cannot touch is left exactly as it was.
        refuseUnsupportedFeatures(start.snapshot(), "vacuum", true);
      }
    } catch (RuntimeException | Error e) {
      if (listing != null) {
        listing.abandon();
      }
      throw e;
    }
    Sweeper.Listed swept =
        listing == null
            ? new Sweeper.Listed(ports.sweeper().sweep(location, Sweeper.Scope.SCRATCH_ONLY), null)
            : start
                .phases()
                .time(
                    Phase.VACUUM_PLAN,
                    () -> ports.sweeper().sweepListed(location, listing.await(location)));
    SweepReport sweep = ReportSections.sweep(swept.result());
    List<StepOutcome> steps = new ArrayList<>(List.of(inspected(start.health())));
    VacuumReport vacuum =
        start
            .phases()
            .time(
                Phase.VACUUM_PLAN,
                () -> vacuum(start.request(), start.snapshot(), steps, swept.tableFiles()));
    return recorded(
        start.request(),
        report("vacuum", start, location, null, null, vacuum, steps)
            .withSweep(sweep)
            .withTimings(start.phases().timings()));
  }

  /** The table's listing ({@link Sweeper#listTable}), taken on a daemon thread of its own. */
  private record BackgroundListing(FutureTask<Sweeper.TableListing> task, Thread thread) {

    static BackgroundListing start(Sweeper sweeper, TableLocation location) {
      FutureTask<Sweeper.TableListing> task = new FutureTask<>(() -> sweeper.listTable(location));
      Thread thread = new Thread(task, "vacuum-listing");
      thread.setDaemon(true);
      thread.start();
      return new BackgroundListing(task, thread);
    }

    /** The listing; what it threw (listTable throws nothing checked) is rethrown as it was. */
    Sweeper.TableListing await(TableLocation location) {
      try {
        return task.get();
      } catch (ExecutionException e) {
        if (e.getCause() instanceof Error error) {
          throw error;
        }
        throw (RuntimeException) e.getCause();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw Errors.operationFailed("listing the files of " + location + " (interrupted)", e);
      }
    }

    /**
     * Stops a listing the run no longer needs (it was refused) and waits for its thread to end, so
     * none of its work goes on after the refusal is reported: it is interrupted (an object store's
     * listing stops at its next request), and what it found or met is dropped. The caller's
     * interrupt status is kept.
     */
    void abandon() {
      task.cancel(true);
      boolean interrupted = false;
      while (thread.isAlive()) {
        try {
          thread.join();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Runs only the log hygiene step (checkpoint when due, expired log files; dry run unless {@code
   * vacuum_dry_run} is false) on the admitted table ({@code demo_mode} ignored) and records the
   * report in telemetry.
   */
  public MaintenanceReport cleanupLogOnly(AdmittedRun run) {
    TableLocation location = run.location();
    ReadOnlyStart start = startReadOnly(run);
    List<StepOutcome> steps = new ArrayList<>(List.of(inspected(start.health())));
    LogCleanupReport logs =
        start
            .phases()
            .time(Phase.VACUUM_PLAN, () -> logCleanup(start.request(), start.snapshot(), steps));
    return recorded(
        start.request(),
        report("cleanup-log", start, location, null, null, null, steps)
            .withLogCleanup(logs, Summaries.logCleanup(logs))
            .withTimings(start.phases().timings()));
  }

  /** What the single-step commands share: the request without demo mode, the table inspected. */
  private record ReadOnlyStart(
      Instant started,
      String executionId,
      MaintenanceRequest request,
      TableSnapshot snapshot,
      TableHealth health,
      PhaseClock phases) {}

  private ReadOnlyStart startReadOnly(AdmittedRun run) {
    PhaseClock phases = new PhaseClock();
    Instant started = ports.clock().instant();
    String executionId = ports.executionIds().get();
    TableSnapshot snapshot =
        phases.time(Phase.INSPECT, () -> ports.tables().loadLatest(run.location()));
    MaintenanceRequest readOnly = fittedZOrder(run.request().withoutDemo(), snapshot, null);
    TableHealth health = phases.time(Phase.INSPECT, () -> inspect(readOnly, snapshot));
    return new ReadOnlyStart(started, executionId, readOnly, snapshot, health, phases);
  }

  private MaintenanceReport report(
      String command,
      ReadOnlyStart start,
      TableLocation location,
      LatencyReport latency,
      CompactionReport compaction,
      VacuumReport vacuum,
      List<StepOutcome> steps) {
    FileSizeHistogram sizes =
        command.equals("plan") ? null : FileSizeHistogram.of(start.snapshot().activeFiles(), null);
    DeliveryReport delivery =
        command.equals("vacuum") || command.equals("cleanup-log") ? DeliveryReport.none() : null;
    return report(
        command,
        start.executionId(),
        start.started(),
        start.request(),
        location,
        start.health(),
        latency,
        compaction,
        vacuum,
        sizes,
        delivery,
        steps);
  }

  VacuumReport vacuum(MaintenanceRequest request, TableSnapshot snapshot, List<StepOutcome> steps) {
    return vacuum(request, snapshot, steps, null);
  }

  /**
   * The vacuum step over {@code listed}, the table's files as listed after {@code snapshot} was
   * loaded, or null to list them in the step.
   */
  VacuumReport vacuum(
      MaintenanceRequest request,
      TableSnapshot snapshot,
      List<StepOutcome> steps,
      List<StoredObject> listed) {
    refuseUnsupportedFeatures(snapshot, "vacuum", !request.vacuumDryRun());
    try {
      ports.leaseGuard().assertHeld();
    } catch (CompactorException e) {
      return skipVacuum(steps, e.getMessage());
    }
    VacuumMode mode = VacuumMode.valueOf(request.vacuumMode().toUpperCase(Locale.ROOT));
    VacuumResult result =
        ports
            .vacuum()
            .vacuum(snapshot, mode, request.vacuumRetentionHours(), request.vacuumDryRun(), listed);
    VacuumReport report = ReportSections.vacuum(result);
    if (result.fenced()) {
      steps.add(
          StepOutcome.failed(
              "vacuum",
              RunState.VACUUM_FENCED
                  + result.fencedReason()
                  + " ("
                  + result.deletedFiles()
                  + " of "
                  + report.candidateFilesCount()
                  + " candidates deleted before the lease was lost; the rest stay for the next"
                  + " run)"));
    } else if (result.skippedReason() != null) {
      steps.add(StepOutcome.skipped("vacuum", result.skippedReason()));
    } else {
      steps.add(
          StepOutcome.done(
              "vacuum",
              String.format(
                  Locale.ROOT,
                  "%s mode, retention %d h (%s): %d candidate files (%d bytes), %s",
                  request.vacuumMode(),
                  report.vacuumRetentionHours(),
                  report.vacuumRetentionSource(),
                  report.candidateFilesCount(),
                  report.candidateBytes(),
                  result.dryRun()
                      ? "dry run, nothing deleted"
                      : report.deletedFilesCount() + " deleted")));
    }
    return report;
  }

  LogCleanupReport logCleanup(
      MaintenanceRequest request, TableSnapshot snapshot, List<StepOutcome> steps) {
    LogCleanupResult result =
        ports
            .logCleanup()
            .clean(
                snapshot, request.vacuumDryRun() ? LogCleanupMode.DRY_RUN : LogCleanupMode.APPLY);
    LogCleanupReport report = ReportSections.logCleanup(result);
    steps.add(
        result.fenced()
            ? StepOutcome.failed("cleanup-log", Summaries.logCleanup(report))
            : report.skippedReason() != null
                ? StepOutcome.skipped("cleanup-log", Summaries.logCleanup(report))
                : StepOutcome.done("cleanup-log", Summaries.logCleanup(report)));
    return report;
  }

  /** Vacuum not run because the run lost its lease ({@code why}): nothing deleted or committed. */
  static VacuumReport skipVacuum(List<StepOutcome> steps, String why) {
    LOG.log(Level.WARNING, "vacuum skipped: {0}", why);
    steps.add(StepOutcome.failed("vacuum", RunState.VACUUM_FENCED + why));
    return null;
  }

  /**
   * Removes what killed runs left behind (stale scratch, our old temporary objects in the table)
   * before this run's work; housekeeping that never fails the run (see {@link
   * company.data.compactor.sweep.Sweeper}).
   */
  SweepReport sweep(TableLocation location, Sweeper.Scope scope) {
    return ReportSections.sweep(ports.sweeper().sweep(location, scope));
  }

  /**
   * Measures read latency; the probe is advisory, so a failure (a missing object, a timed-out read)
   * is noted in {@code failures} and null returned. A skipped measurement (sample, scratch or
   * budget) is returned as such and logged with its reason.
   */
  private ProbeResult probe(
      String when,
      TableSnapshot snapshot,
      List<String> failures,
      java.util.function.Supplier<ProbeResult> measurement) {
    try {
      ProbeResult result = measurement.get();
      if (result.measured()) {
        LOG.log(
            Level.INFO,
            "read latency {0}: table={1} version={2} read={3} files={4} bytes={5} runs={6}"
                + " median_ms={7} used_ms={8} budget_ms={9} downloaded_bytes={10}",
            when,
            snapshot.location(),
            snapshot.version(),
            result.readMethod().name().toLowerCase(Locale.ROOT),
            result.files(),
            result.bytes(),
            result.runsMs().size(),
            result.medianMs(),
            result.usedMs(),
            result.budgetMs(),
            result.downloadedBytes());
      } else {
        LOG.log(
            Level.INFO,
            "read latency {0} skipped: table={1} version={2} used_ms={3}: {4}",
            when,
            snapshot.location(),
            snapshot.version(),
            result.usedMs(),
            result.skipReason());
      }
      return result;
    } catch (RuntimeException e) {
      // Advisory: whatever went wrong while measuring must not stop the maintenance.
      LOG.log(
          Level.WARNING,
          "read-latency probe failed ({0}): table={1} version={2}: {3}; maintenance goes on",
          when,
          snapshot.location(),
          snapshot.version(),
          e.getMessage());
      failures.add(when + " compaction: " + e.getMessage());
      return null;
    }
  }

  private static StepOutcome inspected(TableHealth health) {
    return StepOutcome.done(
        "inspect", health.totalFiles() + " active files at version " + health.tableVersion());
  }

  private static StepOutcome probeStep(LatencyReport latency) {
    String detail =
        String.format(
            Locale.ROOT,
            "median read %.1f ms before (%d files)",
            latency.readLatencyPreMs(),
            latency.latencyProbeFilesPre());
    if (latency.readLatencyPostMs() != null) {
      detail +=
          String.format(
              Locale.ROOT,
              ", %.1f ms after (%d files), speedup %.1f%%",
              latency.readLatencyPostMs(),
              latency.latencyProbeFilesPost(),
              latency.latencySpeedupPct());
    } else if (latency.latencyProbePostSkipped() != null) {
      detail += "; after compaction skipped: " + latency.latencyProbePostSkipped();
    } else {
      detail += "; not measured again: nothing was rewritten";
    }
    detail +=
        String.format(
            Locale.ROOT,
            "; %s, %d ms of a %d ms budget, %d bytes downloaded",
            latency.latencyProbeRead().replace('_', ' '),
            latency.latencyProbeUsedMs(),
            latency.latencyProbeBudgetMs(),
            latency.latencyProbeDownloadedBytes());
    if (latency.latencyRegressionDetected()) {
      detail += "; the read exceeded latency_sla_ms before compaction";
    }
    return StepOutcome.done("probe", detail);
  }

  /** Up to {@code max} partitions with the most files: where fragmentation costs most. */
  private static List<PartitionValues> mostFragmented(TableHealth health, int max) {
    return health.partitions().stream()
        .sorted(
            java.util.Comparator.comparingInt(
                    company.data.compactor.inspect.PartitionHealth::fileCount)
                .reversed()
                .thenComparing(company.data.compactor.inspect.PartitionHealth::partition))
        .limit(max)
        .map(p -> new PartitionValues(p.partitionValues()))
        .toList();
  }

  static StepOutcome compacted(MaintenanceRequest request, CompactionReport c) {
    String detail =
        String.format(
            Locale.ROOT,
            "%d files -> %d (%d removed, %d added), %.3f MB rewritten, version %d -> %d",
            c.filesBefore(),
            c.filesAfter(),
            c.filesRemoved(),
            c.filesAdded(),
            c.bytesCompactedMb(),
            c.versionBefore(),
            c.versionAfter());
    long notCommitted =
        c.compactionPartitions().stream().filter(p -> !p.status().equals("committed")).count();
    if (notCommitted > 0) {
      detail += "; " + notCommitted + " partition(s) not committed (see compaction_partitions)";
    }
    if (!request.zOrderColumns().isEmpty()) {
      detail += "; Z-ordered by " + String.join(", ", request.zOrderColumns());
    }
    return StepOutcome.done("compact", detail);
  }

  static String whyNothing(MaintenanceRequest request, TableHealth health, CompactionPlan plan) {
    if (!plan.tableGatePassed()) {
      return String.format(
          Locale.ROOT,
          "small-file ratio %.2f%% is below the %.2f%% gate",
          health.smallFileRatioPct(),
          request.compactionRatioThresholdPct());
    }
    boolean clustered =
        plan.partitions().stream()
            .anyMatch(p -> p.outcome() == PartitionDecision.Outcome.ALREADY_CLUSTERED);
    if (clustered
        && plan.partitions().stream()
            .noneMatch(p -> p.outcome() == PartitionDecision.Outcome.COMPACT)) {
      return "every partition over the gate is already Z-ordered by "
          + String.join(", ", request.zOrderColumns())
          + " and has no new files";
    }
    return "nothing to merge: no partition in scope has small files that merging would reduce (one"
        + " small file per partition, small files that fill as many target-size outputs, or none"
        + " adjacent)";
  }

  static CompactionOptions options(MaintenanceRequest request, PartitionFilter filter) {
    return new CompactionOptions(
        ByteSizes.mbToBytes(request.smallFileThresholdMb()),
        request.compactionRatioThresholdPct(),
        ByteSizes.mbToBytes(request.targetFileSizeMb()),
        CompactionOptions.defaultMaxBinBytes(ByteSizes.mbToBytes(request.targetFileSizeMb())),
        filter,
        request.maxBytesPerRun(),
        request.zOrderColumns().isEmpty() ? Layout.BIN_PACK : Layout.Z_ORDER,
        request.zOrderColumns(),
        request.maxZOrderGroupBytes());
  }

  /**
   * Checks the rules that need the table's schema (z-order columns, the partition filter) and
   * returns the filter, parsed once.
   *
   * @throws CompactorException INVALID_REQUEST naming every broken rule; nothing touched
   */
  /**
   * The request with the default {@code z_order_columns} dropped when the table lacks one (the
   * default fits the demo table, not every table): bin-packing, said in a {@code z-order} step
   * added to {@code steps} (when given) and so in the summary. Columns the caller gave are kept and
   * checked as given.
   */
  static MaintenanceRequest fittedZOrder(
      MaintenanceRequest request, TableSnapshot snapshot, List<StepOutcome> steps) {
    MaintenanceRequest fitted =
        request.fittedTo(column -> snapshot.schema().column(column).isPresent());
    if (fitted != request) {
      String why =
          "Bin-packed: the default z_order_columns "
              + request.zOrderColumns()
              + " names no column of this table; give --z-order-columns (z_order_columns) to"
              + " Z-order";
      LOG.log(Level.INFO, "{0}: table={1}", why, snapshot.location());
      if (steps != null) {
        steps.add(StepOutcome.skipped("z-order", why));
      }
    }
    return fitted;
  }

  static PartitionFilter tableChecked(MaintenanceRequest request, TableSchema schema) {
    List<Violation> found = new ArrayList<>(RequestRules.violationsAgainst(request, schema));
    PartitionFilter filter = null;
    try {
      filter = PartitionFilter.parse(request.partitionFilter(), schema);
    } catch (IllegalArgumentException e) {
      found.add(
          new Violation(
              InputKey.PARTITION_FILTER.key(), request.partitionFilter(), e.getMessage()));
    }
    refuseIfInvalid(found);
    return filter;
  }

  static void refuseUnsupportedFeatures(TableSnapshot snapshot, String step) {
    refuseUnsupportedFeatures(snapshot, step, true);
  }

  /**
   * Refuses {@code snapshot} when it uses a feature {@code step} does not handle; {@code commits}
   * says whether the step will commit, so features the Delta writer cannot commit to count too.
   */
  private static void refuseUnsupportedFeatures(
      TableSnapshot snapshot, String step, boolean commits) {
    Set<String> unwritable = commits ? snapshot.unwritableFeatures() : Set.of();
    List<String> unsupported = RewriteSupport.unsupported(snapshot.features(), unwritable);
    if (!unsupported.isEmpty()) {
      List<String> inUse =
          unsupported.stream()
              .filter(unwritable::contains)
              .map(f -> f + ": " + RewriteSupport.inUse(f))
              .toList();
      throw Errors.unsupportedTable(
          snapshot.location(),
          "it uses table feature(s) "
              + String.join(", ", unsupported)
              + " that "
              + step
              + " does not handle yet"
              + (inUse.isEmpty()
                  ? ""
                  : " ("
                      + String.join("; ", inUse)
                      + "; the Delta kernel this compactor commits with does not commit to a table"
                      + " that uses it, so compact it with Delta Lake's OPTIMIZE on Spark)")
              + "; nothing was written or deleted. Inspect and plan still work on it.");
    }
  }

  TableHealth inspect(MaintenanceRequest request, TableSnapshot snapshot) {
    TableHealth health =
        TableInspector.inspect(
            snapshot,
            new MergeRule(
                ByteSizes.mbToBytes(request.smallFileThresholdMb()),
                ByteSizes.mbToBytes(request.targetFileSizeMb()),
                request.compactionRatioThresholdPct()));
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
      throw Errors.invalidAgainstTable(violations);
    }
  }

  MaintenanceReport report(
      String command,
      String executionId,
      Instant started,
      MaintenanceRequest request,
      TableLocation location,
      TableHealth health,
      LatencyReport latency,
      CompactionReport compaction,
      VacuumReport vacuum,
      FileSizeHistogram sizes,
      DeliveryReport delivery,
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
        health.deletedRows(),
        health.deletedRowsRatio(),
        health.compactionRequired(),
        ReportSections.partitions(health),
        latency,
        compaction,
        vacuum,
        null,
        null,
        sizes,
        delivery,
        steps,
        Summaries.of(location, health, latency, compaction, vacuum, steps, request),
        null,
        null,
        null);
  }

  private static Map<String, Object> inputs(MaintenanceRequest request, TableLocation location) {
    Map<String, Object> inputs = new LinkedHashMap<>();
    inputs.put(InputKey.DEMO_MODE.key(), request.demoMode());
    inputs.put(InputKey.TABLE_URI.key(), location.uri());
    inputs.put(InputKey.SMALL_FILE_THRESHOLD_MB.key(), request.smallFileThresholdMb());
    inputs.put(
        InputKey.COMPACTION_RATIO_THRESHOLD_PCT.key(), request.compactionRatioThresholdPct());
    inputs.put(InputKey.TARGET_FILE_SIZE_MB.key(), request.targetFileSizeMb());
    inputs.put(InputKey.Z_ORDER_COLUMNS.key(), request.zOrderColumns());
    inputs.put(InputKey.VACUUM_RETENTION_HOURS.key(), request.vacuumRetentionHours());
    inputs.put(InputKey.VACUUM_DRY_RUN.key(), request.vacuumDryRun());
    inputs.put(InputKey.LATENCY_SLA_MS.key(), request.latencySlaMs());
    inputs.put(InputKey.NOTIFY_SLACK.key(), request.notifySlack());
    inputs.put(InputKey.PARTITION_FILTER.key(), request.partitionFilter());
    inputs.put(
        InputKey.MAX_BYTES_PER_RUN.key(),
        request.maxBytesPerRun().isPresent() ? request.maxBytesPerRun().getAsLong() : null);
    inputs.put(InputKey.VACUUM_MODE.key(), request.vacuumMode());
    inputs.put(InputKey.MAX_ZORDER_GROUP_BYTES.key(), request.maxZOrderGroupBytes());
    return inputs;
  }
}
