package company.data.compactor.notify;

import company.data.compactor.report.MaintenanceReport;
import company.data.compactor.report.PartitionReport;
import company.data.compactor.report.RunState;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Slack Block Kit messages (pure). A summary is green when the run compacted and blue when the
 * table was left as it was; a failure alert is red and names run, table and error class only.
 */
public final class SlackMessages {

  static final String GREEN = "#2EB67D";
  static final String BLUE = "#1D9BD1";
  static final String RED = "#E01E5A";

  /** Partitions listed as the worst, by small-file ratio then file count. */
  static final int WORST_PARTITIONS = 3;

  private SlackMessages() {}

  /** The summary of a finished run. */
  public static Map<String, Object> summary(MaintenanceReport report) {
    boolean compacted = RunState.compacted(report);
    String state = RunState.of(report);
    List<Object> blocks = new ArrayList<>();
    blocks.add(header("Delta table maintenance: " + state));
    blocks.add(
        section(
            "*Table* `"
                + escape(report.tableUri())
                + "`\n*Version* "
                + versions(report, compacted)));
    List<Object> fields = new ArrayList<>();
    fields.add(field("*Files*\n" + files(report, compacted)));
    fields.add(
        field(
            "*Rewritten*\n"
                + (compacted ? mb(report.compaction().bytesCompactedMb()) : "nothing")));
    fields.add(field("*Read latency*\n" + latency(report)));
    fields.add(field("*Vacuum*\n" + vacuum(report)));
    blocks.add(Map.of("type", "section", "fields", fields));
    blocks.add(section("*Worst partitions*\n" + worstPartitions(report)));
    String context = "run `" + escape(report.executionId()) + "` · " + report.evaluatedAt();
    if (report.delivery() != null && report.delivery().htmlReportUri() != null) {
      context += " · report `" + escape(report.delivery().htmlReportUri()) + "`";
    }
    blocks.add(Map.of("type", "context", "elements", List.of(mrkdwn(context))));
    String fallback =
        String.format(
            Locale.ROOT,
            "delta-compactor: %s %s (%s)",
            report.tableUri(),
            state,
            files(report, compacted));
    return message(fallback, compacted ? GREEN : BLUE, blocks);
  }

  /** The alert for a failed run. */
  public static Map<String, Object> failure(FailureAlert alert) {
    List<Object> blocks =
        List.of(
            header("Delta table maintenance failed"),
            Map.of(
                "type",
                "section",
                "fields",
                List.of(
                    field("*Table*\n`" + escape(alert.tableUri()) + "`"),
                    field("*Error*\n" + escape(alert.errorClass())),
                    field("*Run*\n`" + escape(alert.executionId()) + "`"),
                    field("*Command*\n" + escape(alert.command())))),
            Map.of(
                "type",
                "context",
                "elements",
                List.of(
                    mrkdwn(
                        "failed at " + alert.failedAt() + " · details in the logs of this run"))));
    return message(
        "delta-compactor: "
            + alert.command()
            + " failed for "
            + alert.tableUri()
            + " ("
            + alert.errorClass()
            + ")",
        RED,
        blocks);
  }

  private static String versions(MaintenanceReport report, boolean compacted) {
    return compacted
        ? report.compaction().versionBefore() + " → " + report.compaction().versionAfter()
        : Long.toString(report.tableVersion());
  }

  private static String files(MaintenanceReport report, boolean compacted) {
    if (!compacted) {
      return report.totalFiles()
          + String.format(Locale.ROOT, " (%.1f%% small)", report.smallFileRatioPct());
    }
    return report.compaction().filesBefore()
        + " → "
        + report.compaction().filesAfter()
        + " ("
        + report.compaction().filesReduced()
        + " fewer)";
  }

  private static String latency(MaintenanceReport report) {
    if (report.latency() == null) {
      return "not measured";
    }
    Double post = report.latency().readLatencyPostMs();
    String pre = String.format(Locale.ROOT, "%.1f ms", report.latency().readLatencyPreMs());
    if (post == null) {
      return pre + " (nothing rewritten)";
    }
    double speedup = report.latency().latencySpeedupPct();
    return String.format(
        Locale.ROOT,
        "%s → %.1f ms (%.1f%% %s)",
        pre,
        post,
        Math.abs(speedup),
        speedup >= 0 ? "faster" : "slower");
  }

  private static String vacuum(MaintenanceReport report) {
    if (report.vacuum() == null || report.vacuum().vacuumSkippedReason() != null) {
      return "not run";
    }
    return String.format(
        Locale.ROOT,
        "%d candidates, %d deleted%s, retention %d h (%s)",
        report.vacuum().candidateFilesCount(),
        report.vacuum().deletedFilesCount(),
        report.vacuum().vacuumDryRun() ? " (dry run)" : "",
        report.vacuum().vacuumRetentionHours(),
        report.vacuum().vacuumRetentionSource());
  }

  private static String worstPartitions(MaintenanceReport report) {
    List<PartitionReport> worst =
        report.partitions().stream()
            .sorted(
                Comparator.comparingDouble(PartitionReport::smallFileRatioPct)
                    .reversed()
                    .thenComparing(Comparator.comparingInt(PartitionReport::fileCount).reversed())
                    .thenComparing(PartitionReport::partition))
            .limit(WORST_PARTITIONS)
            .toList();
    if (worst.isEmpty()) {
      return "none (empty table)";
    }
    StringBuilder text = new StringBuilder();
    for (PartitionReport p : worst) {
      if (!text.isEmpty()) {
        text.append('\n');
      }
      text.append(
          String.format(
              Locale.ROOT,
              "• `%s` %d files, %.1f%% small, avg %s",
              escape(p.partition()),
              p.fileCount(),
              p.smallFileRatioPct(),
              mb(p.avgFileSizeMb())));
    }
    return text.toString();
  }

  private static String mb(double value) {
    return String.format(Locale.ROOT, "%.2f MB", value);
  }

  /** Slack's three control characters in mrkdwn text. */
  static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  private static Map<String, Object> message(String fallback, String color, List<Object> blocks) {
    Map<String, Object> attachment = new LinkedHashMap<>();
    attachment.put("color", color);
    attachment.put("blocks", blocks);
    Map<String, Object> message = new LinkedHashMap<>();
    message.put("text", escape(fallback));
    message.put("attachments", List.of(attachment));
    return message;
  }

  private static Map<String, Object> header(String text) {
    return Map.of("type", "header", "text", Map.of("type", "plain_text", "text", text));
  }

  private static Map<String, Object> section(String text) {
    return Map.of("type", "section", "text", mrkdwn(text));
  }

  private static Map<String, Object> field(String text) {
    return mrkdwn(text);
  }

  private static Map<String, Object> mrkdwn(String text) {
    return Map.of("type", "mrkdwn", "text", text);
  }
}
