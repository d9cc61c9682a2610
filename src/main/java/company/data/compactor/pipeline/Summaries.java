package company.data.compactor.pipeline;

import company.data.compactor.config.MaintenanceRequest;
import company.data.compactor.inspect.TableHealth;
import company.data.compactor.model.MergeRule;
import company.data.compactor.model.TableLocation;
import company.data.compactor.report.CompactionReport;
import company.data.compactor.report.LatencyReport;
import company.data.compactor.report.LogCleanupReport;
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
              " Compaction required (ratio reaches the %.2f%% gate; %d small files to merge).",
              request.compactionRatioThresholdPct(),
              health.compactableSmallFiles()));
    } else if (health.ratioReachesGate()) {
      long lone =
          health.partitions().stream()
              .filter(p -> p.verdict() == MergeRule.Verdict.NOTHING_TO_MERGE)
              .count();
      text.append(
          String.format(
              Locale.ROOT,
              " Nothing to merge: the ratio reaches the %.2f%% gate, but in %d of %d partitions"
                  + " merging would not reduce the file count (one small file each, or small files"
                  + " that fill as many %s MB outputs).",
              request.compactionRatioThresholdPct(),
              lone,
              health.partitions().size(),
              java.math.BigDecimal.valueOf(request.targetFileSizeMb())
                  .stripTrailingZeros()
                  .toPlainString()));
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
        .filter(s -> s.step().equals("z-order") && s.status().equals("skipped"))
        .forEach(s -> text.append(" ").append(s.detail()).append("."));
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

  /** The one sentence about log hygiene. */
  static String logCleanup(LogCleanupReport logs) {
    String checkpoint =
        switch (logs.checkpointStatus()) {
          case "not_due" ->
              String.format(
                  Locale.ROOT,
                  "no checkpoint due (%d commits since the last)",
                  logs.commitsSinceCheckpoint());
          case "would_write" -> "checkpoint due at version " + logs.checkpointVersion();
          case "written" -> "checkpoint written at version " + logs.checkpointVersion();
          case "already_exists" -> "checkpoint at version " + logs.checkpointVersion() + " existed";
          default ->
              "checkpoint at version "
                  + logs.checkpointVersion()
                  + " "
                  + logs.checkpointStatus()
                  + (logs.checkpointDetail() == null ? "" : " (" + logs.checkpointDetail() + ")");
        };
    if (logs.skippedReason() != null) {
      return "Log cleanup: " + checkpoint + "; " + logs.skippedReason() + ".";
    }
    return String.format(
        Locale.ROOT,
        "Log cleanup (%d h, cutoff %s): %s; %d of %d log files expired, %s; versions %d..%d"
            + " readable%s.",
        logs.logRetentionHours(),
        logs.cutoff(),
        checkpoint,
        logs.expiredFilesCount(),
        logs.logFilesListed(),
        logs.dryRun() ? "dry run" : logs.deletedFilesCount() + " deleted",
        logs.dryRun() ? logs.oldestVersionBefore() : logs.oldestVersionAfter(),
        logs.latestVersion(),
        logs.dryRun() && logs.expiredFilesCount() > 0
            ? " (" + logs.oldestVersionAfter() + ".." + logs.latestVersion() + " after applying)"
            : "");
  }
}
