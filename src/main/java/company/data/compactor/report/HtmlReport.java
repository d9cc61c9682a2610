package company.data.compactor.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A run's report as one self-contained HTML page (inline CSS and SVG, no script, nothing fetched
 * from the network): summary figures, small-file ratio per partition against the gate, file-size
 * distribution per partition before and after, read latency before and after against the SLA, the
 * vacuum summary, the Z-order section (skipping fraction and the files and bytes a point lookup
 * reads, before and after), the time per phase when the report has {@code timings_ms}, and the
 * partition table. Every figure is also text, marked with {@code data-field}, so the page reads
 * without the charts. Partition labels are marked {@code data-label}: in charts a long one is
 * elided in the middle with the whole label as its tooltip ({@code <title>}), in tables it wraps.
 * The page fits a 390 px phone screen without horizontal scrolling (charts scale down). Pure:
 * report in, page out.
 */
public final class HtmlReport {

  private static final String GREY = "#9AA5B1";
  private static final String GREEN = "#2EB67D";
  private static final String RED = "#E01E5A";
  private static final String BLUE = "#1D9BD1";

  /** Characters of a partition label a chart shows (12 px text in a 280 px label column). */
  static final int LABEL_CHARS = 38;

  private HtmlReport() {}

  /** The page of {@code report}. */
  public static String render(MaintenanceReport report) {
    boolean compacted = RunState.compacted(report);
    String state = RunState.of(report);
    StringBuilder html = new StringBuilder(16_384);
    html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append("<title>delta-compactor: ")
        .append(esc(report.tableUri()))
        .append("</title>\n")
        .append("<style>\n")
        .append(
            "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:24px auto;max-width:980px;color:#1d1c1d;padding:0 16px}\n")
        .append(
            "h1{font-size:24px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px}.muted{color:#616061;font-size:13px}\n")
        .append(
            ".state{display:inline-block;padding:2px 10px;border-radius:12px;color:#fff;font-size:14px;vertical-align:middle}\n")
        .append(
            ".cards{display:grid;grid-template-columns:repeat(4,1fr);gap:12px;margin-top:16px}\n")
        .append(
            ".card{border:1px solid #ddd;border-radius:8px;padding:12px}.card h3{margin:0;font-size:13px;color:#616061;font-weight:600}\n")
        .append(
            ".big{font-size:22px;font-weight:600;margin:6px 0 2px}.card p{margin:2px 0;font-size:13px}\n")
        .append(
            "table{border-collapse:collapse;font-size:13px;width:100%}th,td{border-bottom:1px solid #eee;padding:4px 8px;text-align:right}\n")
        .append(
            "th:first-child,td:first-child{text-align:left}code{font-size:12px;background:#f4f4f4;padding:1px 4px;border-radius:3px}\n")
        .append(
            "svg text{font-family:system-ui,sans-serif;font-size:12px;fill:#1d1c1d}.sizes{display:flex;flex-wrap:wrap;gap:12px}\n")
        .append(
            "svg{max-width:100%;height:auto}code{overflow-wrap:anywhere}figure{max-width:100%}\n")
        .append(
            "@media (max-width:640px){.cards{grid-template-columns:repeat(2,1fr)}th,td{padding:4px 3px}}\n")
        .append("</style>\n</head>\n<body>\n");
    html.append(
            "<header>\n<h1>Delta table maintenance <span class=\"state\" data-field=\"state\" style=\"background:")
        .append(compacted ? GREEN : BLUE)
        .append("\">")
        .append(state)
        .append("</span></h1>\n")
        .append("<p><code data-field=\"table_uri\">")
        .append(esc(report.tableUri()))
        .append("</code></p>\n")
        .append("<p class=\"muted\">run <code data-field=\"execution_id\">")
        .append(esc(report.executionId()))
        .append("</code> · <span data-field=\"evaluated_at\">")
        .append(esc(report.evaluatedAt()))
        .append("</span> · command ")
        .append(esc(report.command()))
        .append(" · table version ")
        .append(report.tableVersion())
        .append(" · ")
        .append(report.durationMs())
        .append(" ms</p>\n</header>\n");
    cards(html, report, compacted);
    gate(html, report);
    sizes(html, report);
    latency(html, report);
    zOrder(html, report);
    vacuum(html, report);
    timings(html, report);
    partitions(html, report);
    html.append("<footer class=\"muted\"><p>")
        .append(esc(report.summary()))
        .append("</p><p>schema_version ")
        .append(report.schemaVersion())
        .append(" · delta-compactor</p></footer>\n</body>\n</html>\n");
    return html.toString();
  }

  private static void cards(StringBuilder html, MaintenanceReport report, boolean compacted) {
    html.append("<section class=\"cards\" id=\"summary\">\n");
    String files =
        compacted
            ? report.compaction().filesBefore() + " → " + report.compaction().filesAfter()
            : Integer.toString(report.totalFiles());
    String filesNote =
        compacted
            ? report.compaction().filesReduced() + " fewer files"
            : fmt("%.1f%% small, gate %.1f%%", report.smallFileRatioPct(), gatePct(report));
    card(html, "Files", "files", files, filesNote);
    card(
        html,
        "Rewritten",
        "bytes_compacted_mb",
        compacted ? fmt("%.2f MB", report.compaction().bytesCompactedMb()) : "0 MB",
        compacted ? report.compaction().rowsRewritten() + " rows, verified" : "nothing rewritten");
    LatencyReport latency = report.latency();
    if (latency == null) {
      card(html, "Read latency", "read_latency", "not measured", "");
    } else if (latency.readLatencyPostMs() == null) {
      card(
          html,
          "Read latency",
          "read_latency",
          fmt("%.1f ms", latency.readLatencyPreMs()),
          latency.latencyProbePostSkipped() == null
              ? "not measured again: nothing rewritten"
              : "after compaction skipped: " + esc(latency.latencyProbePostSkipped()));
    } else {
      card(
          html,
          "Read latency",
          "read_latency",
          fmt("%.1f → %.1f ms", latency.readLatencyPreMs(), latency.readLatencyPostMs()),
          fmt(
              "%.1f%% %s",
              Math.abs(latency.latencySpeedupPct()),
              latency.latencySpeedupPct() >= 0 ? "faster" : "slower"));
    }
    VacuumReport vacuum = report.vacuum();
    if (vacuum == null || vacuum.vacuumSkippedReason() != null) {
      card(
          html,
          "Vacuum",
          "vacuum",
          "not run",
          vacuum == null ? "" : esc(vacuum.vacuumSkippedReason()));
    } else {
      card(
          html,
          "Vacuum",
          "vacuum",
          vacuum.candidateFilesCount() + " candidates",
          vacuum.deletedFilesCount()
              + " deleted"
              + (vacuum.vacuumDryRun() ? " (dry run)" : "")
              + " · retention "
              + vacuum.vacuumRetentionHours()
              + " h ("
              + esc(vacuum.vacuumRetentionSource())
              + ")");
    }
    html.append("</section>\n");
  }

  private static void card(
      StringBuilder html, String title, String field, String big, String note) {
    html.append("<div class=\"card\"><h3>")
        .append(title)
        .append("</h3><p class=\"big\" data-field=\"")
        .append(field)
        .append("\">")
        .append(big)
        .append("</p><p>")
        .append(note)
        .append("</p></div>\n");
  }

  private static double gatePct(MaintenanceReport report) {
    Object gate = report.inputs().get("compaction_ratio_threshold_pct");
    return gate instanceof Number n ? n.doubleValue() : Double.NaN;
  }

  private static void gate(StringBuilder html, MaintenanceReport report) {
    double gate = gatePct(report);
    html.append("<section id=\"gate\">\n<h2>Small-file ratio per partition, against the gate (")
        .append(fmt("%.1f%%", gate))
        .append(")</h2>\n");
    List<PartitionReport> partitions = report.partitions();
    int label = 280;
    int width = 420;
    int row = 24;
    int height = Math.max(1, partitions.size()) * row + 30;
    html.append(svgOpen(label + width + 70, height, "Small-file ratio per partition"));
    double gateX = label + width * Math.min(100, Math.max(0, gate)) / 100.0;
    for (int i = 0; i < partitions.size(); i++) {
      PartitionReport p = partitions.get(i);
      int y = i * row + 4;
      double w = width * p.smallFileRatioPct() / 100.0;
      String color = p.smallFileRatioPct() >= gate ? RED : GREY;
      html.append(
              fmt(
                  "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" data-label=\"partition\">%s%s</text>",
                  label - 8,
                  y + 15,
                  p.partition().length() > LABEL_CHARS
                      ? "<title>" + esc(p.partition()) + "</title>"
                      : "",
                  esc(elide(p.partition(), LABEL_CHARS))))
          .append(
              fmt(
                  "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>",
                  label, y, w, row - 8, color))
          .append(
              fmt(
                  "<text x=\"%.1f\" y=\"%d\">%.1f%%</text>\n",
                  label + w + 6, y + 15, p.smallFileRatioPct()));
    }
    html.append(
            fmt(
                "<line x1=\"%.1f\" y1=\"0\" x2=\"%.1f\" y2=\"%d\" stroke=\"#1d1c1d\" stroke-dasharray=\"4 3\"/>",
                gateX, gateX, height - 22))
        .append(
            fmt(
                "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">gate %.1f%%</text>\n",
                gateX, height - 6, gate))
        .append("</svg>\n</section>\n");
  }

  private static void sizes(StringBuilder html, MaintenanceReport report) {
    FileSizeHistogram histogram = report.fileSizeHistogram();
    if (histogram == null) {
      return;
    }
    html.append("<section id=\"sizes\">\n<h2>File sizes per partition, before")
        .append(
            histogram.partitions().stream().anyMatch(p -> p.after() != null) ? " and after" : "")
        .append("</h2>\n<p class=\"muted\"><span style=\"color:")
        .append(GREY)
        .append("\">■</span> before · <span style=\"color:")
        .append(GREEN)
        .append(
            "\">■</span> after; bucket upper bounds in MB; bar heights on a logarithmic scale"
                + " (the count is written above each bar)</p>\n<div class=\"sizes\">\n");
    List<String> labels = bucketLabels(histogram.bucketUpperMb());
    for (FileSizeHistogram.PartitionSizes p : histogram.partitions()) {
      int max = 1;
      for (int i = 0; i < p.before().size(); i++) {
        max = Math.max(max, p.before().get(i));
        if (p.after() != null) {
          max = Math.max(max, p.after().get(i));
        }
      }
      int plot = 110;
      int column = 36;
      int width = labels.size() * column + 10;
      html.append("<figure style=\"margin:0\">")
          .append(svgOpen(width, plot + 40, "File sizes of " + p.partition()));
      for (int i = 0; i < labels.size(); i++) {
        int x = 6 + i * column;
        bar(html, x, plot, 14, p.before().get(i), max, GREY, "before");
        if (p.after() != null) {
          bar(html, x + 15, plot, 14, p.after().get(i), max, GREEN, "after");
        }
        html.append(
            fmt(
                "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" style=\"font-size:10px\">%s</text>",
                x + 15, plot + 30, labels.get(i)));
      }
      html.append("</svg><figcaption><code data-label=\"partition\">")
          .append(esc(p.partition()))
          .append("</code></figcaption></figure>\n");
    }
    html.append("</div>\n</section>\n");
  }

  private static void bar(
      StringBuilder html,
      int x,
      int plot,
      int width,
      int count,
      int max,
      String color,
      String when) {
    // Logarithmic: one file after ten before is still a visible bar (log 2 / log 11 of the height).
    double h = (plot - 14) * Math.log1p(count) / Math.log1p(max);
    html.append(
        fmt(
            "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"%s\"><title>%s: %d</title></rect>",
            x, plot - h, width, h, color, when, count));
    if (count > 0) {
      html.append(
          fmt(
              "<text x=\"%d\" y=\"%.1f\" text-anchor=\"middle\" style=\"font-size:10px\">%d</text>",
              x + width / 2, plot - h - 3, count));
    }
  }

  private static List<String> bucketLabels(List<Double> bounds) {
    List<String> labels = new ArrayList<>();
    for (int i = 0; i < bounds.size(); i++) {
      Double upper = bounds.get(i);
      labels.add(upper == null ? "≥" + num(bounds.get(i - 1)) : "<" + num(upper));
    }
    return labels;
  }

  private static void latency(StringBuilder html, MaintenanceReport report) {
    LatencyReport latency = report.latency();
    if (latency == null) {
      return;
    }
    Object slaInput = report.inputs().get("latency_sla_ms");
    double sla = slaInput instanceof Number n ? n.doubleValue() : Double.NaN;
    html.append("<section id=\"latency\">\n<h2>Read latency (median), against the SLA (")
        .append(fmt("%.1f ms", sla))
        .append(")</h2>\n");
    double max =
        Math.max(
            sla,
            Math.max(
                latency.readLatencyPreMs(),
                latency.readLatencyPostMs() == null ? 0 : latency.readLatencyPostMs()));
    int label = 80;
    int width = 560;
    html.append(svgOpen(label + width + 90, 84, "Read latency before and after"));
    latencyBar(html, 6, "before", latency.readLatencyPreMs(), max, label, width, GREY);
    if (latency.readLatencyPostMs() != null) {
      latencyBar(html, 34, "after", latency.readLatencyPostMs(), max, label, width, GREEN);
    }
    double slaX = label + width * sla / max;
    html.append(
            fmt(
                "<line x1=\"%.1f\" y1=\"0\" x2=\"%.1f\" y2=\"62\" stroke=\"%s\" stroke-dasharray=\"4 3\"/>",
                slaX, slaX, RED))
        .append(
            fmt("<text x=\"%.1f\" y=\"78\" text-anchor=\"middle\">SLA %.1f ms</text>", slaX, sla))
        .append("</svg>\n<p class=\"muted\">")
        .append(esc(latency.latencyProbeMethod()))
        .append("</p>\n</section>\n");
  }

  private static void latencyBar(
      StringBuilder html,
      int y,
      String name,
      double ms,
      double max,
      int label,
      int width,
      String color) {
    double w = width * ms / max;
    html.append(
            fmt("<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>", label - 8, y + 15, name))
        .append(
            fmt(
                "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"20\" fill=\"%s\"/>",
                label, y, w, color))
        .append(
            fmt(
                "<text x=\"%.1f\" y=\"%d\" data-field=\"read_latency_%s_ms\">%.1f ms</text>\n",
                label + w + 6, y + 15, name.equals("before") ? "pre" : "post", ms));
  }

  private static void vacuum(StringBuilder html, MaintenanceReport report) {
    VacuumReport v = report.vacuum();
    if (v == null) {
      return;
    }
    html.append("<section id=\"vacuum-summary\">\n<h2>Vacuum</h2>\n<table>\n");
    row(html, "mode", esc(v.vacuumMode()));
    row(html, "dry run", Boolean.toString(v.vacuumDryRun()));
    row(
        html,
        "retention",
        v.vacuumRetentionHours() + " h (" + esc(v.vacuumRetentionSource()) + ")");
    row(html, "cutoff", esc(String.valueOf(v.vacuumCutoff())));
    row(
        html,
        "candidate files",
        "<span data-field=\"candidate_files_count\">"
            + v.candidateFilesCount()
            + "</span> ("
            + fmt("%.2f MB", v.candidateBytes() / (1024.0 * 1024.0))
            + ")");
    row(
        html,
        "deleted files",
        "<span data-field=\"deleted_files_count\">" + v.deletedFilesCount() + "</span>");
    row(html, "kept: younger than the cutoff", Integer.toString(v.keptYoungFiles()));
    row(
        html,
        "kept: tombstones within the retention",
        Integer.toString(v.keptUnexpiredTombstones()));
    if (v.vacuumSkippedReason() != null) {
      row(html, "skipped", esc(v.vacuumSkippedReason()));
    }
    for (String warning : v.vacuumWarnings()) {
      row(html, "warning", esc(warning));
    }
    html.append("</table>\n</section>\n");
  }

  private static void row(StringBuilder html, String name, String value) {
    html.append("<tr><td>").append(name).append("</td><td>").append(value).append("</td></tr>\n");
  }

  private static void partitions(StringBuilder html, MaintenanceReport report) {
    html.append(
            "<section id=\"partitions\">\n<h2>Partitions</h2>\n<table>\n<tr><th>partition</th><th>files</th>")
        .append("<th>small files</th><th>small %</th><th>avg MB</th><th>total MB</th></tr>\n");
    for (PartitionReport p : report.partitions()) {
      html.append("<tr><td><code data-label=\"partition\">")
          .append(esc(p.partition()))
          .append("</code></td><td>")
          .append(p.fileCount())
          .append("</td><td>")
          .append(p.smallFilesCount())
          .append("</td><td>")
          .append(fmt("%.1f", p.smallFileRatioPct()))
          .append("</td><td>")
          .append(fmt("%.3f", p.avgFileSizeMb()))
          .append("</td><td>")
          .append(fmt("%.3f", p.totalSizeMb()))
          .append("</td></tr>\n");
    }
    html.append(
        fmt(
            "<tr><th>all %d partitions</th><th data-field=\"total_files\">%d</th><th>%d</th><th data-field=\"small_file_ratio_pct\">%.1f</th><th>%.3f</th><th>%.3f</th></tr>%n",
            report.partitions().size(),
            report.totalFiles(),
            report.totalSmallFiles(),
            report.smallFileRatioPct(),
            report.avgFileSizeMb(),
            report.totalSizeMb()));
    html.append("</table>\n</section>\n");
  }

  private static String svgOpen(int width, int height, String title) {
    return fmt(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\"><title>%s</title>\n",
        width, height, width, height, esc(title));
  }

  /**
   * {@code text} whole when it has at most {@code max} characters, else elided in the middle,
   * keeping two thirds from the start (where the first partition values are) and the end.
   */
  static String elide(String text, int max) {
    if (text.length() <= max) {
      return text;
    }
    int head = (max - 1) * 2 / 3;
    int tail = max - 1 - head;
    return text.substring(0, head) + "…" + text.substring(text.length() - tail);
  }

  private static void zOrder(StringBuilder html, MaintenanceReport report) {
    ZOrderSkippingReport z = report.zorderSkipping();
    if (z == null) {
      return;
    }
    html.append("<section id=\"zorder\">\n<h2>Z-order by <code data-field=\"zorder_columns\">")
        .append(esc(String.join(", ", z.columns())))
        .append("</code></h2>\n<p class=\"muted\">What a point lookup on a Z-order column reads")
        .append(
            " across the rewritten partitions, before and after (averaged over sampled values).")
        .append(" The fraction of a partition's files it reads can rise when a partition becomes")
        .append(" one file; the files and bytes read are what it costs.</p>\n");
    int label = 150;
    int width = 420;
    html.append(svgOpen(label + width + 120, 128, "Point lookup before and after"));
    pairedBars(
        html,
        0,
        "files read",
        z.pointLookupFilesBefore(),
        z.pointLookupFilesAfter(),
        fmt("%.1f", z.pointLookupFilesBefore()),
        fmt("%.1f", z.pointLookupFilesAfter()),
        "point_lookup_files",
        label,
        width);
    pairedBars(
        html,
        64,
        "bytes read",
        z.pointLookupBytesBefore(),
        z.pointLookupBytesAfter(),
        ZOrderSkippingReport.human(z.pointLookupBytesBefore()),
        ZOrderSkippingReport.human(z.pointLookupBytesAfter()),
        "point_lookup_bytes",
        label,
        width);
    html.append("</svg>\n<table>\n<tr><th>column</th><th>sampled values</th>")
        .append("<th>file fraction</th><th>files read</th><th>bytes read</th></tr>\n");
    for (ZOrderSkippingReport.Column c : z.perColumn()) {
      html.append("<tr><td><code>")
          .append(esc(c.column()))
          .append("</code></td><td>")
          .append(c.sampledValues())
          .append("</td><td>")
          .append(fmt("%.2f → %.2f", c.fileFractionBefore(), c.fileFractionAfter()))
          .append("</td><td>")
          .append(fmt("%.1f → %.1f", c.pointLookupFilesBefore(), c.pointLookupFilesAfter()))
          .append("</td><td>")
          .append(ZOrderSkippingReport.human(c.pointLookupBytesBefore()))
          .append(" → ")
          .append(ZOrderSkippingReport.human(c.pointLookupBytesAfter()))
          .append("</td></tr>\n");
    }
    html.append(
            fmt(
                "<tr><th>all</th><th></th><th data-field=\"file_fraction\">%.2f → %.2f</th>",
                z.fileFractionBefore(), z.fileFractionAfter()))
        .append(
            fmt(
                "<th data-field=\"point_lookup_files\">%.1f → %.1f</th>",
                z.pointLookupFilesBefore(), z.pointLookupFilesAfter()))
        .append("<th data-field=\"point_lookup_bytes\">")
        .append(ZOrderSkippingReport.human(z.pointLookupBytesBefore()))
        .append(" → ")
        .append(ZOrderSkippingReport.human(z.pointLookupBytesAfter()))
        .append("</th></tr>\n</table>\n</section>\n");
  }

  /**
   * Two bars, before (grey) and after (green), scaled to the larger; a non-zero bar is at least 3
   * px wide so a small "after" stays visible.
   */
  private static void pairedBars(
      StringBuilder html,
      int y,
      String name,
      double before,
      double after,
      String beforeText,
      String afterText,
      String field,
      int label,
      int width) {
    double max = Math.max(1e-9, Math.max(before, after));
    html.append(
        fmt(
            "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n",
            label - 8, y + 27, esc(name)));
    double[] values = {before, after};
    String[] texts = {beforeText, afterText};
    String[] colors = {GREY, GREEN};
    String[] when = {"before", "after"};
    for (int i = 0; i < 2; i++) {
      double w = values[i] <= 0 ? 0 : Math.max(3, width * values[i] / max);
      int top = y + 4 + i * 26;
      html.append(
              fmt(
                  "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"20\" fill=\"%s\"><title>%s: %s</title></rect>",
                  label, top, w, colors[i], when[i], esc(texts[i])))
          .append(
              fmt(
                  "<text x=\"%.1f\" y=\"%d\" data-field=\"%s_%s\">%s %s</text>\n",
                  label + w + 6, top + 15, field, when[i], esc(texts[i]), when[i]));
    }
  }

  /**
   * Time per phase, from the report's {@code timings_ms} ({phase: ms}) when it has one: a bar per
   * phase present, in the report's order; nothing when the report has no timings.
   */
  private static void timings(StringBuilder html, MaintenanceReport report) {
    if (report.timingsMs() == null) {
      return;
    }
    java.util.Map<String, Object> timings = ReportJson.asMap(report.timingsMs());
    if (timings.isEmpty()) {
      return;
    }
    List<String> phases = new ArrayList<>();
    List<Double> ms = new ArrayList<>();
    timings.forEach(
        (phase, value) -> {
          if (value instanceof Number n) {
            phases.add(String.valueOf(phase));
            ms.add(n.doubleValue());
          }
        });
    if (phases.isEmpty()) {
      return;
    }
    double max = Math.max(1, ms.stream().mapToDouble(Double::doubleValue).max().orElse(1));
    int label = 120;
    int width = 460;
    int row = 24;
    html.append("<section id=\"timings\">\n<h2>Time per phase</h2>\n")
        .append(svgOpen(label + width + 90, phases.size() * row + 6, "Time per phase"));
    for (int i = 0; i < phases.size(); i++) {
      int y = i * row + 4;
      double w = ms.get(i) <= 0 ? 0 : Math.max(3, width * ms.get(i) / max);
      html.append(
              fmt(
                  "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>",
                  label - 8, y + 14, esc(phases.get(i))))
          .append(
              fmt(
                  "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>",
                  label, y, w, row - 8, BLUE))
          .append(
              fmt(
                  "<text x=\"%.1f\" y=\"%d\" data-field=\"timings_ms.%s\">%.0f ms</text>\n",
                  label + w + 6, y + 14, esc(phases.get(i)), ms.get(i)));
    }
    html.append("</svg>\n</section>\n");
  }

  private static String num(double value) {
    return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
  }

  private static String fmt(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }

  /** HTML text and attribute escaping. */
  static String esc(String text) {
    if (text == null) {
      return "";
    }
    return text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;")
        .replace("'", "&#39;");
  }
}
