package company.data.compactor.cli;

import company.data.compactor.report.CompactionPartitionReport;
import company.data.compactor.report.CompactionReport;
import company.data.compactor.report.MaintenanceReport;
import company.data.compactor.report.PartitionReport;
import company.data.compactor.report.PlanPartitionReport;
import company.data.compactor.report.StepOutcome;
import java.util.Locale;

/** The report as a plain-text table for a terminal. */
final class ReportText {

  private ReportText() {}

  static String render(MaintenanceReport report) {
    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, "table      %s%n", report.tableUri()));
    out.append(String.format(Locale.ROOT, "version    %d%n", report.tableVersion()));
    out.append(
        String.format(
            Locale.ROOT,
            "files      %d (%d small, %.2f%%), avg %.4f MB, total %.4f MB, rows %s%n",
            report.totalFiles(),
            report.totalSmallFiles(),
            report.smallFileRatioPct(),
            report.avgFileSizeMb(),
            report.totalSizeMb(),
            report.totalRows() == null ? "unknown" : report.totalRows()));
    out.append(
        String.format(
            Locale.ROOT,
            "compaction %s%n%n",
            report.compactionRequired() ? "required" : "not required"));
    int width =
        Math.max(
            "partition".length(),
            report.partitions().stream().mapToInt(p -> p.partition().length()).max().orElse(0));
    out.append(
        String.format(
            Locale.ROOT,
            "%-" + width + "s %7s %7s %8s %12s %12s%n",
            "partition",
            "files",
            "small",
            "ratio%",
            "avg MB",
            "total MB"));
    for (PartitionReport p : report.partitions()) {
      out.append(
          String.format(
              Locale.ROOT,
              "%-" + width + "s %7d %7d %8.2f %12.4f %12.4f%n",
              p.partition(),
              p.fileCount(),
              p.smallFilesCount(),
              p.smallFileRatioPct(),
              p.avgFileSizeMb(),
              p.totalSizeMb()));
    }
    if (report.vacuum() != null && report.vacuum().vacuumSkippedReason() == null) {
      var v = report.vacuum();
      out.append(
          String.format(
              Locale.ROOT,
              "%nvacuum     %s, retention %d h (%s), cutoff %s: %d candidates (%d bytes), %s%n",
              v.vacuumMode(),
              v.vacuumRetentionHours(),
              v.vacuumRetentionSource(),
              v.vacuumCutoff(),
              v.candidateFilesCount(),
              v.candidateBytes(),
              v.vacuumDryRun() ? "dry run" : v.deletedFilesCount() + " deleted"));
      v.candidateSample().forEach(p -> out.append("  ").append(p).append(System.lineSeparator()));
      v.vacuumWarnings()
          .forEach(w -> out.append("  warning: ").append(w).append(System.lineSeparator()));
    }
    if (report.compaction() != null) {
      out.append(System.lineSeparator()).append(compaction(report.compaction()));
    }
    out.append(System.lineSeparator());
    for (StepOutcome step : report.steps()) {
      out.append(
          String.format(Locale.ROOT, "%-8s %-13s %s%n", step.step(), step.status(), step.detail()));
    }
    if (report.delivery() != null) {
      if (report.delivery().htmlReportUri() != null) {
        out.append(
            String.format(Locale.ROOT, "%nreport     %s%n", report.delivery().htmlReportUri()));
      }
      out.append(
          String.format(
              Locale.ROOT,
              "slack      %s (%s)%n",
              report.delivery().slackNotification(),
              report.delivery().slackNotificationDetail()));
    }
    return out.toString();
  }

  private static String compaction(CompactionReport c) {
    StringBuilder out = new StringBuilder();
    var plan = c.compactionPlan();
    out.append(
        String.format(
            Locale.ROOT,
            "plan       %d bins, %d files, %.4f MB to rewrite (layout %s%s); %d bins, %d bytes deferred%n",
            plan.bins(),
            plan.filesToRewrite(),
            plan.bytesToRewrite() / 1048576.0,
            plan.layout(),
            plan.partitionFilter().isEmpty() ? "" : ", filter " + plan.partitionFilter(),
            plan.binsDeferred(),
            plan.bytesDeferred()));
    if (plan.deletionVectorsToPurge() > 0) {
      out.append(
          String.format(
              Locale.ROOT,
              "  %d files with deletion vectors rewritten without their deleted rows (vectors purged)%n",
              plan.deletionVectorsToPurge()));
    }
    for (PlanPartitionReport p : plan.partitions()) {
      out.append(
          String.format(
              Locale.ROOT,
              "  %-40s %-16s files %d, small %d, bins %d%n",
              p.partition(),
              p.decision(),
              p.files(),
              p.smallFiles(),
              p.bins()));
    }
    if (c.compacted() || !c.compactionPartitions().isEmpty()) {
      out.append(
          String.format(
              Locale.ROOT,
              "compacted  %d -> %d files (%d removed, %d added), %.4f MB in %d ms (%.1f MB/s), version %d -> %d%n",
              c.filesBefore(),
              c.filesAfter(),
              c.filesRemoved(),
              c.filesAdded(),
              c.bytesCompactedMb(),
              c.compactionDurationMs(),
              c.compactionMbPerSec(),
              c.versionBefore(),
              c.versionAfter()));
      for (CompactionPartitionReport p : c.compactionPartitions()) {
        out.append(
            String.format(
                Locale.ROOT,
                "  %-40s %-20s %d -> %d files%s%n",
                p.partition(),
                p.status(),
                p.filesRemoved(),
                p.filesAdded(),
                p.detail() == null ? "" : " (" + p.detail() + ")"));
      }
    }
    return out.toString();
  }
}
