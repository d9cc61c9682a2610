package company.data.compactor.pipeline;

import company.data.compactor.admission.AdmittedRun;
import company.data.compactor.compact.Bin;
import company.data.compactor.compact.CompactionPlan;
import company.data.compactor.compact.CompactionPlanner;
import company.data.compactor.compact.CompactionResult;
import company.data.compactor.compact.PartitionFilter;
import company.data.compactor.compact.PartitionResult;
import company.data.compactor.config.MaintenanceRequest;
import company.data.compactor.delta.RewriteLookup;
import company.data.compactor.demo.DemoTable;
import company.data.compactor.error.CompactorException;
import company.data.compactor.error.Errors;
import company.data.compactor.fanout.FanOutItem;
import company.data.compactor.fanout.FanOutPlan;
import company.data.compactor.fanout.ItemResult;
import company.data.compactor.fanout.PlanStore;
import company.data.compactor.inspect.TableHealth;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.PartitionValues;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.report.CompactionReport;
import company.data.compactor.report.DeliveryReport;
import company.data.compactor.report.ExecutionReport;
import company.data.compactor.report.FileSizeHistogram;
import company.data.compactor.report.LogCleanupReport;
import company.data.compactor.report.MaintenanceReport;
import company.data.compactor.report.StepOutcome;
import company.data.compactor.report.VacuumReport;
import company.data.compactor.sweep.Sweeper;
import company.data.compactor.vacuum.Retention;
import java.lang.System.Logger.Level;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A maintenance run split for the Step Functions state machine ({@code infra/template.yaml}): the
 * same steps as {@link MaintenancePipeline#run}, in three tasks. {@link #plan} seeds the demo when
 * asked, sweeps, inspects, plans and stores the plan under the run id; {@link #compact} rewrites
 * and commits one partition's bins (one item of the Distributed Map); {@link #finish} collects the
 * items, vacuums, cleans the log, reports, records telemetry and notifies. The run holds its
 * table's lease from Plan to Finalize (the tasks share it, see {@code Leases.OnExit.KEEP}), so the
 * items race only with each other's commits, which rebase: each item commits on top of the plan's
 * version, exactly as the in-process run commits partition after partition.
 *
 * <p>Items are idempotent by run id and partition: before rewriting, an item asks the log ({@link
 * RewriteLookup}) whether a commit after the plan's version already removed exactly its inputs
 * without changing data, and if so does nothing. The read-latency probe does not run in this mode
 * (its before and after would straddle many invocations).
 */
public final class FanOutPipeline {

  private static final System.Logger LOG = System.getLogger(FanOutPipeline.class.getName());

  private final MaintenancePipeline pipeline;
  private final PlanStore plans;
  private final RewriteLookup rewrites;

  /**
   * @param pipeline the run's pipeline (its ports, lease guard and execution id)
   * @param plans where plans are stored under their run id
   * @param rewrites the log evidence of an item's earlier commit
   */
  public FanOutPipeline(MaintenancePipeline pipeline, PlanStore plans, RewriteLookup rewrites) {
    this.pipeline = pipeline;
    this.plans = plans;
    this.rewrites = rewrites;
  }

  private PipelinePorts ports() {
    return pipeline.ports;
  }

  /**
   * Plans the admitted run {@code runId} and stores the plan (see {@link PlanStore}).
   *
   * @throws CompactorException as {@link MaintenancePipeline#run} before its rewrite (nothing
   *     touched); REFUSED when the run id already has a plan
   */
  public FanOutPlan plan(AdmittedRun run, String runId) {
    MaintenanceRequest request = run.request();
    TableLocation location = run.location();
    Instant started = ports().clock().instant();
    if (request.demoMode()) {
      MaintenancePipeline.tableChecked(request, DemoTable.SCHEMA);
      ports().demoSeeder().seed(location);
    }
    TableSnapshot snapshot = ports().tables().loadLatest(location);
    request = MaintenancePipeline.fittedZOrder(request, snapshot, null);
    PartitionFilter filter = MaintenancePipeline.tableChecked(request, snapshot.schema());
    Retention.effective(request.vacuumRetentionHours(), snapshot.properties());
    pipeline.sweep(location, Sweeper.Scope.SCRATCH_AND_TABLE);
    CompactionPlan plan =
        CompactionPlanner.plan(snapshot, MaintenancePipeline.options(request, filter));
    if (!plan.isEmpty()) {
      MaintenancePipeline.refuseUnsupportedFeatures(snapshot, "compaction");
    }
    List<FanOutItem> items = new ArrayList<>();
    int index = 0;
    for (Map.Entry<PartitionValues, List<Bin>> group : byPartition(plan).entrySet()) {
      items.add(
          new FanOutItem(
              index++,
              group.getKey().label(),
              List.copyOf(inputs(group.getValue())),
              group.getValue().stream().mapToLong(Bin::inputBytes).sum()));
    }
    FanOutPlan stored =
        new FanOutPlan(
            runId, location.uri(), run.inputs(), snapshot.version(), started.toString(), items);
    plans.save(stored);
    LOG.log(
        Level.INFO,
        "fan-out planned: table={0} version={1} run={2} items={3} bytes={4}",
        location,
        snapshot.version(),
        runId,
        items.size(),
        stored.bytesToRewrite());
    return stored;
  }

  /**
   * Compacts item {@code index} of {@code plan}: one partition, one commit. Returns {@link
   * ItemResult.Status#ALREADY_COMMITTED} without rewriting anything when the log shows an earlier
   * attempt's commit of exactly these inputs.
   *
   * @throws CompactorException REFUSED when the item does not exist or the plan's snapshot no
   *     longer plans the same files for it; OPERATION_FAILED as {@code Compactor.execute} (a retry
   *     is safe: it finds a landed commit in the log)
   */
  public ItemResult compact(AdmittedRun run, FanOutPlan plan, int index) {
    long started = ports().clock().millis();
    Replanned replanned = replan(run, plan);
    List<Map.Entry<PartitionValues, List<Bin>>> groups =
        new ArrayList<>(byPartition(replanned.plan()).entrySet());
    if (index < 0 || index >= groups.size() || index >= plan.items().size()) {
      throw Errors.refused(
          "compact item " + index + " of run " + plan.runId(),
          "the plan has "
              + plan.items().size()
              + " items (0 to "
              + (plan.items().size() - 1)
              + ")");
    }
    FanOutItem item = plan.items().get(index);
    Map.Entry<PartitionValues, List<Bin>> group = groups.get(index);
    Set<String> inputs = inputs(group.getValue());
    if (!inputs.equals(Set.copyOf(item.inputs()))) {
      throw Errors.refused(
          "compact item " + index + " of run " + plan.runId(),
          "re-planning version "
              + plan.readVersion()
              + " gives other files for partition "
              + item.partition()
              + " than the stored plan. Nothing was written; start a new run.");
    }
    Optional<RewriteLookup.Rewrite> earlier =
        rewrites.committedRewrite(replanned.snapshot().location(), plan.readVersion(), inputs);
    if (earlier.isPresent()) {
      LOG.log(
          Level.INFO,
          "fan-out item already committed: table={0} run={1} item={2} partition={3} version={4}",
          plan.tableUri(),
          plan.runId(),
          index,
          item.partition(),
          earlier.get().version());
      return alreadyCommitted(
          item, group.getValue(), earlier.get(), ports().clock().millis() - started);
    }
    MaintenancePipeline.refuseUnsupportedFeatures(replanned.snapshot(), "compaction");
    CompactionPlan one =
        new CompactionPlan(
            replanned.plan().readVersion(),
            replanned.plan().options(),
            replanned.plan().tableGatePassed(),
            group.getValue(),
            List.of(),
            replanned.plan().partitions(),
            (int)
                group.getValue().stream()
                    .flatMap(b -> b.files().stream())
                    .filter(DataFile::hasDeletionVector)
                    .count());
    CompactionResult result = ports().compactor().execute(one, replanned.snapshot());
    PartitionResult p = result.partitions().get(0);
    ItemResult done =
        new ItemResult(
            index,
            item.partition(),
            switch (p.status()) {
              case COMMITTED -> ItemResult.Status.COMMITTED;
              case CONFLICTED -> ItemResult.Status.CONFLICTED;
              case VERIFICATION_FAILED -> ItemResult.Status.VERIFICATION_FAILED;
              case FENCED -> ItemResult.Status.FENCED;
              case FAILED -> ItemResult.Status.FAILED;
            },
            p.committedVersion(),
            p.filesRemoved(),
            p.filesAdded(),
            p.bytesRemoved(),
            p.bytesAdded(),
            p.rows(),
            ports().clock().millis() - started,
            p.detail());
    LOG.log(
        Level.INFO,
        "fan-out item done: table={0} run={1} item={2} partition={3} status={4} files={5}->{6}",
        plan.tableUri(),
        plan.runId(),
        index,
        item.partition(),
        done.status().label(),
        done.filesRemoved(),
        done.filesAdded());
    return done;
  }

  /**
   * Finishes the run from its items' results (missing ones count as failed): a failed item whose
   * inputs the log shows rewritten counts as committed; then vacuum, log cleanup, report (with
   * {@code execution_mode} {@code state_machine} and {@code run_outcome} {@code complete} or {@code
   * partial}), HTML page, Slack, telemetry, as an in-process run does.
   *
   * @param reason why the run went through the state machine (the budget decision)
   */
  public MaintenanceReport finish(
      AdmittedRun run, FanOutPlan plan, List<ItemResult> results, String reason) {
    Instant started = Instant.parse(plan.createdAt());
    MaintenanceRequest request = run.request();
    TableLocation location = run.location();
    List<StepOutcome> steps = new ArrayList<>();
    steps.add(
        request.demoMode()
            ? StepOutcome.done("seed", "fresh demo table, seeded by the Plan task")
            : StepOutcome.skipped("seed", "demo_mode is false"));
    Replanned replanned = replan(run, plan);
    request = replanned.request();
    TableHealth health = pipeline.inspect(request, replanned.snapshot());
    steps.add(
        StepOutcome.done(
            "inspect",
            health.totalFiles()
                + " files, "
                + health.totalSmallFiles()
                + " small ("
                + health.smallFileRatioPct()
                + "%) at version "
                + health.tableVersion()));
    steps.add(
        StepOutcome.skipped(
            "probe", "not run by the state machine: its items run in separate invocations"));
    Map<Integer, ItemResult> byItem = new HashMap<>();
    for (ItemResult r : results) {
      byItem.put(r.item(), r);
    }
    List<Map.Entry<PartitionValues, List<Bin>>> groups =
        new ArrayList<>(byPartition(replanned.plan()).entrySet());
    List<PartitionResult> partitions = new ArrayList<>();
    long version = plan.readVersion();
    int landed = 0;
    for (int i = 0; i < groups.size() && i < plan.items().size(); i++) {
      FanOutItem item = plan.items().get(i);
      Map.Entry<PartitionValues, List<Bin>> group = groups.get(i);
      ItemResult result =
          byItem.getOrDefault(
              i, ItemResult.failed(i, item.partition(), "no result reached Finalize"));
      if (!result.status().landed()) {
        Optional<RewriteLookup.Rewrite> inLog =
            rewrites.committedRewrite(location, plan.readVersion(), Set.copyOf(item.inputs()));
        if (inLog.isPresent()) {
          result = alreadyCommitted(item, group.getValue(), inLog.get(), result.durationMs());
        }
      }
      if (result.status().landed()) {
        landed++;
        version = Math.max(version, result.committedVersion());
      }
      partitions.add(partitionResult(group.getKey(), result));
    }
    CompactionPlan compactionPlan = replanned.plan();
    // The items' own durations reach Finalize only when the caller passes their results (the
    // state machine does not: its Map's output would outgrow the payload limit); the run's wall
    // time from Plan to Finalize is always known, and gives the run's rate across its workers.
    long wallMs = Math.max(0, ports().clock().millis() - started.toEpochMilli());
    CompactionResult result = new CompactionResult(plan.readVersion(), version, partitions, wallMs);
    CompactionReport compaction =
        compactionPlan.isEmpty()
            ? ReportSections.notRun(health, compactionPlan)
            : ReportSections.ran(health, compactionPlan, result);
    if (compactionPlan.isEmpty()) {
      steps.add(
          StepOutcome.skipped(
              "compact", MaintenancePipeline.whyNothing(request, health, compactionPlan)));
    } else {
      steps.add(MaintenancePipeline.compacted(request, compaction));
    }
    ExecutionReport execution = ExecutionReport.stateMachine(reason, plan.items().size(), landed);
    steps.add(
        landed == plan.items().size()
            ? StepOutcome.done(
                "fan-out", plan.items().size() + " item(s), every partition committed")
            : StepOutcome.failed(
                "fan-out",
                (plan.items().size() - landed)
                    + " of "
                    + plan.items().size()
                    + " item(s) did not commit; the others stay committed (run is partial)"));
    TableSnapshot latest = ports().tables().loadLatest(location);
    VacuumReport vacuum =
        compaction.fenced()
            ? MaintenancePipeline.skipVacuum(steps, "it lost the table's lease during compaction")
            : pipeline.vacuum(request, latest, steps);
    LogCleanupReport logs =
        compaction.fenced() ? null : pipeline.logCleanup(request, latest, steps);
    FileSizeHistogram sizes =
        FileSizeHistogram.of(
            replanned.snapshot().activeFiles(),
            compaction.compacted() ? latest.activeFiles() : null);
    MaintenanceReport built =
        pipeline
            .report(
                "run",
                plan.runId(),
                started,
                request,
                location,
                health,
                null,
                compaction,
                vacuum,
                sizes,
                DeliveryReport.none(),
                steps)
            .withExecution(execution);
    if (logs != null) {
      built = built.withLogCleanup(logs, Summaries.logCleanup(logs));
    }
    if (landed < plan.items().size()) {
      pipeline.alert(
          request,
          location,
          plan.runId(),
          "fan-out",
          Errors.operationFailed(
              "compacting run " + plan.runId(),
              new IllegalStateException(
                  (plan.items().size() - landed) + " item(s) did not commit (partial run)")));
    }
    return pipeline.recorded(request, pipeline.deliver(request, built));
  }

  private record Replanned(
      MaintenanceRequest request, TableSnapshot snapshot, CompactionPlan plan) {}

  /** The plan's snapshot planned again: the planner is pure, so the same bins come out. */
  private Replanned replan(AdmittedRun run, FanOutPlan plan) {
    if (!run.location().uri().equals(plan.tableUri())) {
      throw Errors.refused(
          "continue run " + plan.runId(),
          "its plan is for " + plan.tableUri() + " but the task names " + run.location());
    }
    TableSnapshot snapshot = ports().tables().loadAt(run.location(), plan.readVersion());
    MaintenanceRequest request = MaintenancePipeline.fittedZOrder(run.request(), snapshot, null);
    PartitionFilter filter = MaintenancePipeline.tableChecked(request, snapshot.schema());
    return new Replanned(
        request,
        snapshot,
        CompactionPlanner.plan(snapshot, MaintenancePipeline.options(request, filter)));
  }

  private static Map<PartitionValues, List<Bin>> byPartition(CompactionPlan plan) {
    Map<PartitionValues, List<Bin>> groups = new LinkedHashMap<>();
    for (Bin bin : plan.bins()) {
      groups.computeIfAbsent(bin.partition(), k -> new ArrayList<>()).add(bin);
    }
    return groups;
  }

  private static Set<String> inputs(List<Bin> bins) {
    Set<String> paths = new LinkedHashSet<>();
    for (Bin bin : bins) {
      for (DataFile file : bin.files()) {
        paths.add(file.logPath());
      }
    }
    return paths;
  }

  private static ItemResult alreadyCommitted(
      FanOutItem item, List<Bin> bins, RewriteLookup.Rewrite rewrite, long durationMs) {
    long rows = bins.stream().mapToLong(Bin::inputRows).sum();
    boolean rowsKnown = bins.stream().allMatch(b -> b.inputRows() >= 0);
    return new ItemResult(
        item.index(),
        item.partition(),
        ItemResult.Status.ALREADY_COMMITTED,
        rewrite.version(),
        item.inputs().size(),
        rewrite.filesAdded(),
        item.inputBytes(),
        rewrite.bytesAdded(),
        rowsKnown ? rows : 0,
        durationMs,
        "rewritten at version "
            + rewrite.version()
            + " (the log holds the commit that removed exactly these inputs)");
  }

  private static PartitionResult partitionResult(PartitionValues partition, ItemResult r) {
    return switch (r.status()) {
      case COMMITTED, ALREADY_COMMITTED ->
          new PartitionResult(
              partition,
              PartitionResult.Status.COMMITTED,
              r.committedVersion(),
              r.filesRemoved(),
              r.filesAdded(),
              r.bytesRemoved(),
              r.bytesAdded(),
              r.rows(),
              r.detail(),
              List.of());
      case CONFLICTED ->
          PartitionResult.notCommitted(partition, PartitionResult.Status.CONFLICTED, r.detail());
      case VERIFICATION_FAILED ->
          PartitionResult.notCommitted(
              partition, PartitionResult.Status.VERIFICATION_FAILED, r.detail());
      case FENCED ->
          PartitionResult.notCommitted(partition, PartitionResult.Status.FENCED, r.detail());
      case FAILED ->
          PartitionResult.notCommitted(partition, PartitionResult.Status.FAILED, r.detail());
    };
  }
}
