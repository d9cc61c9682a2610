package company.data.compactor.probe;

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
import company.data.compactor.notify.NoNotifier;
import company.data.compactor.pipeline.MaintenancePipeline;
import company.data.compactor.pipeline.PipelinePorts;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sample that scratch cannot hold skips the probe with the reason, before anything is downloaded,
 * and the run compacts as usual (issue 16 item 6: with 200 MB of scratch the run used to fail "No
 * space left on device").
 */
class ProbeScratchIT {

  @TempDir Path work;

  @Test
  void aSampleLargerThanScratch_skipsTheProbeWithTheReason_andTheRunStillCompacts()
      throws Exception {
    try (FaultScenario table = FaultScenario.fresh(work)) {
      S3Storage storage = table.storage();
      long sampleBytes =
          table.snapshot().activeFiles().stream().mapToLong(f -> f.sizeBytes()).sum();
      Path probeRoot = work.resolve("probe");
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
                  // Scratch with 1 KiB free: the 30 files of the demo need ~80 KiB.
                  new StorageReadProbe(storage, ProbeSettings.defaults(), probeRoot, dir -> 1024),
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
                  () -> "probe-scratch",
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

      assertThat(report.compaction().filesAfter()).isEqualTo(3);
      assertThat(report.latency()).isNull();
      StepOutcome probe =
          report.steps().stream().filter(s -> s.step().equals("probe")).findFirst().orElseThrow();
      assertThat(probe.status()).isEqualTo("skipped");
      assertThat(probe.detail())
          .isEqualTo(
              "read-latency probe skipped before compaction, maintenance went on: scratch: "
                  + probeRoot
                  + " has 1024 bytes free and the sample needs "
                  + sampleBytes
                  + " (30 files); lower COMPACTOR_PROBE_MAX_BYTES or COMPACTOR_PROBE_MAX_FILES, or"
                  + " give scratch more space");
      try (var left = Files.list(probeRoot)) {
        assertThat(left).as("nothing was downloaded").isEmpty();
      }
      assertThat(table.rowsAndDistinctIds()).containsExactly(1500, 1500);
    }
  }
}
