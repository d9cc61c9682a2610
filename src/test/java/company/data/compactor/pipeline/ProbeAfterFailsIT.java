package company.data.compactor.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

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
import company.data.compactor.model.PartitionValues;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.notify.NoNotifier;
import company.data.compactor.probe.LatencyProbe;
import company.data.compactor.probe.ProbeResult;
import company.data.compactor.probe.ProbeSettings;
import company.data.compactor.probe.StorageReadProbe;
import company.data.compactor.report.MaintenanceReport;
import company.data.compactor.report.StepOutcome;
import company.data.compactor.storage.s3.S3Storage;
import company.data.compactor.sweep.SweepPolicy;
import company.data.compactor.sweep.Sweeper;
import company.data.compactor.telemetry.JsonLinesTelemetrySink;
import company.data.compactor.testing.FaultScenario;
import company.data.compactor.vacuum.Retention;
import company.data.compactor.vacuum.VacuumExecutor;
import company.data.compactor.vacuum.VacuumPlanner;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * When the probe after compaction fails or is slow the maintenance still ends with a report whose
 * steps keep their order (probe, then vacuum) and whose {@code timings_ms} count the probe's time;
 * an Error ends the run as itself.
 */
class ProbeAfterFailsIT {

  @TempDir Path work;

  /**
   * A probe measuring before compaction, and after it waiting {@code ms}, then doing {@code then}.
   */
  private static LatencyProbe afterWaiting(
      LatencyProbe measuring, long ms, java.util.function.Supplier<ProbeResult> then) {
    return new LatencyProbe() {
      @Override
      public ProbeResult before(
          TableSnapshot snapshot,
          List<PartitionValues> partitions,
          long elapsedMs,
          long plannedBytes) {
        return measuring.before(snapshot, partitions, elapsedMs, plannedBytes);
      }

      @Override
      public ProbeResult after(
          TableSnapshot snapshot, List<PartitionValues> partitions, ProbeResult before) {
        try {
          Thread.sleep(ms);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return then.get();
      }

      @Override
      public ProbeSettings settings() {
        return measuring.settings();
      }

      @Override
      public String method() {
        return measuring.method();
      }
    };
  }

  private MaintenanceReport run(
      FaultScenario table, long ms, java.util.function.Supplier<ProbeResult> then) {
    S3Storage storage = table.storage();
    Clock clock = Clock.systemUTC();
    KernelDeltaTables tables = new KernelDeltaTables(storage);
    KernelRewriteCommitter committer = new KernelRewriteCommitter(storage, clock);
    LatencyProbe measuring =
        new StorageReadProbe(
            storage,
            new ProbeSettings(
                ProbeSettings.DEFAULT_QUERY, 3, 1, 16, 64, 128L * 1024 * 1024, 10.0, 600_000),
            work.resolve("probe"));
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
                afterWaiting(measuring, ms, then),
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
                () -> "probe-after-fails",
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

  @Test
  void aProbeFailingSlowly_isReportedBeforeTheVacuum_andTimed() throws Exception {
    try (FaultScenario table = FaultScenario.fresh(work)) {
      MaintenanceReport report =
          run(
              table,
              1500,
              () -> {
                throw new IllegalStateException("injected: the probe's read failed");
              });

      List<String> steps = report.steps().stream().map(s -> s.step()).toList();
      assertThat(steps).containsSubsequence("compact", "probe", "vacuum");
      assertThat(steps.indexOf("probe")).isEqualTo(steps.lastIndexOf("probe"));
      assertThat(report.steps().get(steps.indexOf("probe")))
          .isEqualTo(
              new StepOutcome(
                  "probe",
                  "failed",
                  "advisory read-latency probe failed, maintenance went on: "
                      + report.steps().get(steps.indexOf("probe")).detail().substring(57)));
      assertThat(report.steps().get(steps.indexOf("probe")).detail())
          .contains("injected: the probe's read failed");
      assertThat(report.steps().get(steps.indexOf("vacuum")).status()).isEqualTo("done");
      assertThat(report.timingsMs().probeAfter()).isGreaterThanOrEqualTo(1500);
      assertThat(report.timingsMs().wall()).isGreaterThanOrEqualTo(report.timingsMs().probeAfter());
      assertThat(report.compaction().filesAfter()).isEqualTo(3);
      assertThat(table.rowsAndDistinctIds()).containsExactly(1500L, 1500L);
    }
  }

  @Test
  void aProbeDyingOfAnError_endsTheRunWithThatError_unwrapped() throws Exception {
    try (FaultScenario table = FaultScenario.fresh(work)) {
      org.assertj.core.api.Assertions.assertThatThrownBy(
              () ->
                  run(
                      table,
                      0,
                      () -> {
                        throw new NoClassDefFoundError("injected: DuckDBNative");
                      }))
          .isExactlyInstanceOf(NoClassDefFoundError.class)
          .hasMessage("injected: DuckDBNative");
      assertThat(table.rowsAndDistinctIds()).containsExactly(1500L, 1500L);
    }
  }
}
