package company.data.compactor.cli;

import company.data.compactor.report.CompactionPartitionReport;
import company.data.compactor.report.CompactionReport;
import company.data.compactor.report.MaintenanceReport;
import company.data.compactor.report.PartitionReport;
import company.data.compactor.report.PlanPartitionReport;
import company.data.compactor.report.StepOutcome;
import java.util.Locale;

/**
 * The report as a plain-text table for a terminal, in the order the run works: inspection, plan,
 * compaction, vacuum, log cleanup (the steps). Partition labels take a fixed column of {@value
 * #LABEL_WIDTH} characters, longer ones elided in the middle (the JSON report has them whole).
 */
final class ReportText {

  /** Width of the partition label column. */
  static final int LABEL_WIDTH = 40;

  private ReportText() {}

  /**
   * {@code label} padded to {@code width}, or elided in the middle with "…" to exactly that width,
   * so both ends (first and last partition column) stay readable.
   */
  static String fit(String label, int width) {
    if (label.codePointCount(0, label.length()) <= width) {
      return label + " ".repeat(width - label.codePointCount(0, label.length()));
    }
    int[] points = label.codePoints().toArray();
    int head = (width - 1) / 2;
    int tail = width - 1 - head;
    return new String(points, 0, head) + "…" + new String(points, points.length - tail, tail);
  }

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
    out.append(String.format(Locale.ROOT, "compaction %s%n%n", compactionVerdict(report)));
    out.append(
        String.format(
            Locale.ROOT,
            "%s %7s %7s %8s %12s %12s  %s%n",
            fit("partition", LABEL_WIDTH),
            "files",
            "small",
            "ratio%",
            "avg MB",
            "total MB",
            "merge"));
    for (PartitionReport p : report.partitions()) {
      out.append(
          String.format(
              Locale.ROOT,
              "%s %7d %7d %8.2f %12.4f %12.4f  %s%n",
              fit(p.partition(), LABEL_WIDTH),
              p.fileCount(),
              p.smallFilesCount(),
              p.smallFileRatioPct(),
              p.avgFileSizeMb(),
              p.totalSizeMb(),
              p.mergeVerdict()));
    }
    if (report.compaction() != null) {
      out.append(System.lineSeparator()).append(compaction(report.compaction()));
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
    out.append(System.lineSeparator());
    for (StepOutcome step : report.steps()) {
      out.append(
          String.format(
              Locale.ROOT, "%-11s %-13s %s%n", step.step(), step.status(), step.detail()));
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

  /** {@code required}, {@code not required}, or why not when the ratio alone would say so. */
  private static String compactionVerdict(MaintenanceReport report) {
    if (report.compactionRequired()) {
      return "required";
    }
    boolean nothingToMerge =
        report.partitions().stream().anyMatch(p -> "nothing_to_merge".equals(p.mergeVerdict()));
    return nothingToMerge
        ? "not required (nothing to merge: merging would not reduce the file count)"
        : "not required";
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
              "  %s %-16s files %d, small %d, bins %d%n",
              fit(p.partition(), LABEL_WIDTH),
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
                "  %s %-20s %d -> %d files%s%n",
                fit(p.partition(), LABEL_WIDTH),
                p.status(),
                p.filesRemoved(),
                p.filesAdded(),
                p.detail() == null ? "" : " (" + p.detail() + ")"));
      }
    }
    return out.toString();
  }
}
