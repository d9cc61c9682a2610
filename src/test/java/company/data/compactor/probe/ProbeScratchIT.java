package company.data.compactor.probe;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.report.MaintenanceReport;
import company.data.compactor.report.StepOutcome;
import company.data.compactor.storage.s3.S3Storage;
import company.data.compactor.testing.FaultScenario;
import company.data.compactor.testing.S3Pipelines;
import java.nio.file.Files;
import java.nio.file.Path;
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
      MaintenanceReport report =
          S3Pipelines.run(
              table,
              work,
              // Scratch with 1 KiB free: the 30 files of the demo need ~80 KiB.
              new StorageReadProbe(storage, ProbeSettings.defaults(), probeRoot, dir -> 1024),
              "probe-scratch");

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
