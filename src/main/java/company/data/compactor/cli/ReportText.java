package company.data.compactor.cli;

import company.data.compactor.inspect.PartitionHealth;
import company.data.compactor.report.MaintenanceReport;
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
    out.append(String.format(Locale.ROOT, "compaction %s%n%n", report.compactionRequired() ? "required" : "not required"));
    int width = Math.max("partition".length(), report.partitions().stream().mapToInt(p -> p.partition().length()).max().orElse(0));
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
    for (PartitionHealth p : report.partitions()) {
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
    out.append(System.lineSeparator());
    for (StepOutcome step : report.steps()) {
      out.append(String.format(Locale.ROOT, "%-8s %-13s %s%n", step.step(), step.status(), step.detail()));
    }
    return out.toString();
  }
}
