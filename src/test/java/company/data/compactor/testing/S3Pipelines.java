package company.data.compactor.testing;

import company.data.compactor.admission.Admission;
import company.data.compactor.admission.Trigger;
import company.data.compactor.compact.exec.CompactionExecutor;
import company.data.compactor.compact.exec.RewriteSettings;
import company.data.compactor.delta.kernel.KernelDeletionVectorLoader;
import company.data.compactor.delta.kernel.KernelDeltaTables;
import company.data.compactor.delta.kernel.KernelLogReader;
import company.data.compactor.delta.kernel.KernelRewriteCommitter;
import company.data.compactor.delta.kernel.KernelTableCheckpointer;
import company.data.compactor.delta.kernel.KernelTableWriter;
import company.data.compactor.demo.DemoSeeder;
import company.data.compactor.lease.LeaseGuard;
import company.data.compactor.lease.Leases;
import company.data.compactor.loghygiene.LogCleanupExecutor;
import company.data.compactor.loghygiene.LogCleanupPlanner;
import company.data.compactor.notify.NoNotifier;
import company.data.compactor.pipeline.MaintenancePipeline;
import company.data.compactor.pipeline.PipelinePorts;
import company.data.compactor.probe.LatencyProbe;
import company.data.compactor.report.MaintenanceReport;
import company.data.compactor.storage.s3.S3Storage;
import company.data.compactor.sweep.SweepPolicy;
import company.data.compactor.sweep.Sweeper;
import company.data.compactor.telemetry.JsonLinesTelemetrySink;
import company.data.compactor.vacuum.Retention;
import company.data.compactor.vacuum.VacuumExecutor;
import company.data.compactor.vacuum.VacuumPlanner;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The maintenance pipeline over a {@link FaultScenario}'s table, wired as the CLI wires it but with
 * a probe of the test's own: for tests of what the pipeline does around the probe.
 */
public final class S3Pipelines {

  private S3Pipelines() {}

  /**
   * Runs the pipeline on {@code table} (no demo, no Z-order) with {@code probe}, scratch and
   * telemetry under {@code work}, without a lease.
   */
  public static MaintenanceReport run(
      FaultScenario table, Path work, LatencyProbe probe, String executionId) {
    S3Storage storage = table.storage();
    Clock clock = Clock.systemUTC();
    KernelDeltaTables tables = new KernelDeltaTables(storage);
    KernelRewriteCommitter committer = new KernelRewriteCommitter(storage, clock);
    MaintenancePipeline pipeline =
        new MaintenancePipeline(
            new PipelinePorts(
                tables,
                new DemoSeeder(storage, tables, new KernelTableWriter(storage)),
                new CompactionExecutor(
                    storage,
                    committer,
                    new KernelDeletionVectorLoader(storage),
                    RewriteSettings.defaults(),
                    work.resolve("scratch"),
                    clock),
                probe,
                new VacuumExecutor(
                    storage, new KernelLogReader(storage), committer, new VacuumPlanner(clock)),
                new LogCleanupExecutor(
                    storage, new KernelTableCheckpointer(storage), new LogCleanupPlanner(clock)),
                new Sweeper(
                    storage,
                    List.of(work.resolve("scratch")),
                    new SweepPolicy(Leases.DEFAULT_TTL, Retention.FLOOR),
                    clock),
                new JsonLinesTelemetrySink(work.resolve("telemetry.jsonl")),
                report -> Optional.empty(),
                new NoNotifier(),
                clock,
                () -> executionId,
                LeaseGuard.UNGUARDED));
    return pipeline.run(
        Admission.configuredBy(table.environment(), work)
            .admit(
                Trigger.CLI,
                Map.of(
                    "table_uri", table.uri(),
                    "demo_mode", false,
                    "z_order_columns", List.of())));
  }
}
