package company.data.compactor.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.model.PartitionValues;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.probe.LatencyProbe;
import company.data.compactor.probe.ProbeResult;
import company.data.compactor.probe.ProbeSettings;
import company.data.compactor.probe.StorageReadProbe;
import company.data.compactor.report.MaintenanceReport;
import company.data.compactor.report.StepOutcome;
import company.data.compactor.testing.FaultScenario;
import company.data.compactor.testing.S3Pipelines;
import java.nio.file.Path;
import java.util.List;
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
    LatencyProbe measuring =
        new StorageReadProbe(
            table.storage(),
            new ProbeSettings(
                ProbeSettings.DEFAULT_QUERY, 3, 1, 16, 64, 128L * 1024 * 1024, 10.0, 600_000),
            work.resolve("probe"));
    return S3Pipelines.run(table, work, afterWaiting(measuring, ms, then), "probe-after-fails");
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
