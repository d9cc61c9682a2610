package company.data.compactor.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.admission.Admission;
import company.data.compactor.admission.Trigger;
import company.data.compactor.compact.exec.CompactionExecutor;
import company.data.compactor.compact.exec.RewriteSettings;
import company.data.compactor.delta.LogReader;
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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * After compaction the read-latency probe measures beside the vacuum's planning: one reads the
 * compacted data files, the other the log and the table's listing, so the run does not wait for
 * them one after the other. The report keeps its order (probe step, then vacuum).
 */
class ProbeBesideVacuumIT {

  @TempDir Path work;

  @Test
  void theProbeAfterCompaction_runsWhileTheVacuumReadsTheLog() throws Exception {
    try (FaultScenario table = FaultScenario.fresh(work)) {
      S3Storage storage = table.storage();
      Clock clock = Clock.systemUTC();
      KernelDeltaTables tables = new KernelDeltaTables(storage);
      KernelRewriteCommitter committer = new KernelRewriteCommitter(storage, clock);
      CountDownLatch vacuumReading = new CountDownLatch(1);
      AtomicBoolean sawVacuumWhileProbing = new AtomicBoolean();
      LogReader kernelLog = new KernelLogReader(storage);
      LogReader log =
          location -> {
            vacuumReading.countDown();
            return kernelLog.read(location);
          };
      LatencyProbe measuring =
          new StorageReadProbe(
              storage,
              new ProbeSettings(
                  ProbeSettings.DEFAULT_QUERY, 3, 1, 16, 64, 128L * 1024 * 1024, 10.0, 600_000),
              work.resolve("probe"));
      LatencyProbe probe =
          new LatencyProbe() {
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
                sawVacuumWhileProbing.set(vacuumReading.await(5, TimeUnit.SECONDS));
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              return measuring.after(snapshot, partitions, before);
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
                  new VacuumExecutor(storage, log, committer, new VacuumPlanner(clock)),
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
                  () -> "probe-beside-vacuum",
                  LeaseGuard.UNGUARDED));

      MaintenanceReport report =
          pipeline.run(
              Admission.configuredBy(table.environment(), work)
                  .admit(
                      Trigger.CLI,
                      Map.of(
                          "table_uri", table.uri(),
                          "demo_mode", false,
                          "z_order_columns", List.of())));

      assertThat(sawVacuumWhileProbing)
          .as("the vacuum was reading the log while the probe after compaction measured")
          .isTrue();
      assertThat(report.compaction().filesAfter()).isEqualTo(3);
      assertThat(report.latency().latencyProbeRunsPost()).isEqualTo(1);
      assertThat(report.latency().latencyProbeResultPost()).isEqualTo("1500");
      assertThat(report.steps().stream().map(s -> s.step()).toList())
          .containsSubsequence("compact", "probe", "vacuum");
      assertThat(table.rowsAndDistinctIds()).containsExactly(1500, 1500);
    }
  }
}
