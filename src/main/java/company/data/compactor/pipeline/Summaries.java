package company.data.compactor.pipeline;

import company.data.compactor.config.MaintenanceRequest;
import company.data.compactor.inspect.TableHealth;
import company.data.compactor.model.TableLocation;
import company.data.compactor.report.CompactionReport;
import company.data.compactor.report.LatencyReport;
import company.data.compactor.report.StepOutcome;
import company.data.compactor.report.VacuumReport;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The short human summary of a run. */
final class Summaries {

  private Summaries() {}

  static String of(
      TableLocation location,
      TableHealth health,
      LatencyReport latency,
      CompactionReport compaction,
      VacuumReport vacuum,
      List<StepOutcome> steps,
      MaintenanceRequest request) {
    StringBuilder text = new StringBuilder();
    text.append(
        String.format(
            Locale.ROOT,
            "%s at version %d: %d files in %d partitions, %d small (%.2f%%), %.3f MB, %s rows.",
            location,
            health.tableVersion(),
            health.totalFiles(),
            health.partitions().size(),
            health.totalSmallFiles(),
            health.smallFileRatioPct(),
            health.totalSizeMb(),
            health.totalRows() == null ? "unknown" : String.valueOf(health.totalRows())));
    if (compaction != null && compaction.compacted()) {
      text.append(
          String.format(
              Locale.ROOT,
              " Compacted: %d -> %d files, %.3f MB rewritten, version %d -> %d.",
              compaction.filesBefore(),
              compaction.filesAfter(),
              compaction.bytesCompactedMb(),
              compaction.versionBefore(),
              compaction.versionAfter()));
    } else if (health.compactionRequired()) {
      text.append(
          String.format(
              Locale.ROOT,
              " Compaction required (ratio reaches the %.2f%% gate).",
              request.compactionRatioThresholdPct()));
    } else {
      text.append(" Healthy: no compaction needed.");
    }
    if (latency != null && latency.readLatencyPostMs() != null) {
      double speedup = latency.latencySpeedupPct();
      text.append(
          String.format(
              Locale.ROOT,
              " Read latency %.1f -> %.1f ms (%.1f%% %s).",
              latency.readLatencyPreMs(),
              latency.readLatencyPostMs(),
              Math.abs(speedup),
              speedup >= 0 ? "faster" : "slower"));
    } else if (latency != null) {
      text.append(String.format(Locale.ROOT, " Read latency %.1f ms.", latency.readLatencyPreMs()));
    }
    if (vacuum != null && vacuum.vacuumSkippedReason() == null) {
      text.append(
          String.format(
              Locale.ROOT,
              " Vacuum (%s, %d h): %d candidates, %s%s.",
              vacuum.vacuumMode(),
              vacuum.vacuumRetentionHours(),
              vacuum.candidateFilesCount(),
              vacuum.vacuumDryRun() ? "dry run" : vacuum.deletedFilesCount() + " deleted",
              vacuum.keptUnexpiredTombstones() == 0
                  ? ""
                  : "; "
                      + vacuum.keptUnexpiredTombstones()
                      + " removed files wait for their tombstones to pass the retention"));
    }
    steps.stream()
        .filter(s -> s.status().equals("failed"))
        .forEach(
            s ->
                text.append(" The ")
                    .append(s.step())
                    .append(" step failed (advisory): ")
                    .append(s.detail())
                    .append("."));
    String unavailable =
        steps.stream()
            .filter(s -> s.status().equals("not_available"))
            .map(StepOutcome::step)
            .collect(Collectors.joining(", "));
    if (!unavailable.isEmpty()) {
      text.append(" Not in this build yet: ").append(unavailable).append(".");
    }
    return text.toString();
  }
}
