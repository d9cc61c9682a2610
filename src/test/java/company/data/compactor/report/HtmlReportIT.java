package company.data.compactor.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.cli.Main;
import company.data.compactor.delta.kernel.KernelDeltaTables;
import company.data.compactor.delta.kernel.KernelTableWriter;
import company.data.compactor.demo.DemoSeeder;
import company.data.compactor.demo.DemoTable;
import company.data.compactor.model.TableLocation;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.testing.HeadlessChromium;
import java.awt.image.BufferedImage;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The HTML page of a real run, rendered by headless Chromium. */
class HtmlReportIT {

  @TempDir Path work;

  private JsonNode runDemo() throws Exception {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        Main.execute(
            new String[] {"run", "--work-dir", work.toString(), "--json"},
            new PrintWriter(out, true),
            new PrintWriter(err, true),
            Map.of());
    assertThat(code).as(err.toString()).isZero();
    return new ObjectMapper().readTree(out.toString());
  }

  private static Path page(JsonNode report) {
    String uri = report.get("html_report_uri").asText();
    assertThat(uri)
        .startsWith("file:")
        .endsWith("-" + report.get("execution_id").asText() + ".html");
    return Path.of(uri.substring("file:".length()));
  }

  private static String f(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }

  @Test
  void thePage_isSelfContained_andItsRenderedDom_holdsTheRunsFigures() throws Exception {
    JsonNode report = runDemo();
    Path page = page(report);
    String html = Files.readString(page);

    assertThat(html)
        .doesNotContain("<script")
        .doesNotContain("src=")
        .doesNotContain("href=")
        .doesNotContain("@import")
        .doesNotContain("url(");
    String dom = HeadlessChromium.dumpDom(page);
    assertThat(dom)
        .contains("data-field=\"state\" style=\"background:#2EB67D\">compacted</span>")
        .contains(
            "<code data-field=\"table_uri\">file:" + work.resolve("demo_delta_table") + "</code>")
        .contains("data-field=\"execution_id\">" + report.get("execution_id").asText() + "<")
        .contains("data-field=\"files\">30 → 3</p><p>27 fewer files</p>")
        .contains(
            f(
                "data-field=\"bytes_compacted_mb\">%.2f MB</p><p>1500 rows, verified</p>",
                report.get("bytes_compacted_mb").asDouble()))
        .contains(
            f(
                "data-field=\"read_latency\">%.1f → %.1f ms</p>",
                report.get("read_latency_pre_ms").asDouble(),
                report.get("read_latency_post_ms").asDouble()))
        .contains(
            f(
                "data-field=\"read_latency_pre_ms\">%.1f ms<",
                report.get("read_latency_pre_ms").asDouble()))
        .contains(
            "data-field=\"vacuum\">0 candidates</p><p>0 deleted (dry run) · retention 168 h (floor)</p>")
        .contains("data-field=\"total_files\">30</th>")
        .contains("data-field=\"small_file_ratio_pct\">100.0</th>")
        .contains(">gate 40.0%</text>")
        .contains(">SLA 150.0 ms</text>");
    for (JsonNode p : report.get("partitions")) {
      assertThat(dom)
          .contains(
              "<figcaption><code data-label=\"partition\">"
                  + p.get("partition").asText()
                  + "</code></figcaption>")
          .contains(
              "<tr><td><code data-label=\"partition\">"
                  + p.get("partition").asText()
                  + "</code></td><td>10</td><td>10</td><td>100.0</td>");
    }
    // before: 10 files under 1 MB in each partition; after: 1
    assertThat(dom.split("<title>before: 10</title>", -1)).hasSize(4);
    assertThat(dom.split("<title>after: 1</title>", -1)).hasSize(4);
  }

  @Test
  void theScreenshot_showsTheCharts() throws Exception {
    JsonNode report = runDemo();

    Path png = HeadlessChromium.screenshot(page(report), work.resolve("report.png"), 1100, 1800);

    BufferedImage image = ImageIO.read(png.toFile());
    assertThat(image.getWidth()).isEqualTo(1100);
    assertThat(image.getHeight()).isEqualTo(1800);
    // Partitions above the gate are red bars, files after compaction green bars, before grey.
    assertThat(pixels(image, 0xE01E5A)).as("red gate bars").isGreaterThan(3 * 300);
    assertThat(pixels(image, 0x2EB67D)).as("green after bars and badge").isGreaterThan(500);
    assertThat(pixels(image, 0x9AA5B1)).as("grey before bars").isGreaterThan(1000);
  }

  /** Measures the laid-out page in the browser: overflow, and each partition label's box. */
  private static final String MEASURE =
      "<script>(function(){var vw=document.documentElement.clientWidth;var out=[];"
          + "out.push('overflow='+(document.documentElement.scrollWidth>vw));"
          + "out.push('viewport='+vw);"
          + "document.querySelectorAll('[data-label]').forEach(function(e){"
          + "var r=e.getBoundingClientRect();"
          + "var inside=r.left>=0&&r.right<=vw+0.5;"
          + "var titled=!!e.querySelector('title')||e.hasAttribute('title');"
          + "var elided=e.textContent.indexOf('\\u2026')>=0;"
          + "out.push('label '+(inside?'inside':'outside')+' '+(titled?'titled':'untitled')+' '"
          + "+(elided?'elided':'whole'));});"
          + "document.querySelectorAll('section').forEach(function(e){out.push('section '+e.id);});"
          + "var pre=document.createElement('pre');pre.id='measured';pre.textContent=out.join('\\n');"
          + "document.body.appendChild(pre);})();</script>";

  /** What {@link #MEASURE} found at a window {@code width} px wide. */
  private static List<String> measure(Path page, Path copy, int width) throws Exception {
    Files.writeString(copy, Files.readString(page).replace("</body>", MEASURE + "</body>"));
    String dom = HeadlessChromium.dumpDom(copy, width, 2000);
    int start = dom.indexOf("<pre id=\"measured\">");
    assertThat(start).as("the measuring script ran").isPositive();
    String text =
        dom.substring(start + "<pre id=\"measured\">".length(), dom.indexOf("</pre>", start));
    return text.lines().toList();
  }

  /** The demo's table with partition values 60 characters long, compacted for real. */
  private JsonNode runWideTable() throws Exception {
    Path table = work.resolve("wide");
    new DemoSeeder(
            new LocalStorage(),
            new KernelDeltaTables(new LocalStorage()),
            new KernelTableWriter(new LocalStorage()))
        .seed(TableLocation.parse("wide", work));
    for (String date : DemoTable.DATES) {
      String wide = date + "-customer-segment-enterprise-north-america-east-coast";
      Files.move(table.resolve("event_date=" + date), table.resolve("event_date=" + wide));
      try (var logs = Files.list(table.resolve("_delta_log"))) {
        for (Path log : logs.filter(p -> p.toString().endsWith(".json")).toList()) {
          Files.writeString(log, Files.readString(log).replace(date, wide));
        }
      }
    }
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        Main.execute(
            new String[] {
              "run",
              "--work-dir",
              work.toString(),
              "--table-uri",
              "wide",
              "--demo-mode=false",
              "--json"
            },
            new PrintWriter(out, true),
            new PrintWriter(err, true),
            Map.of());
    assertThat(code).as(err.toString()).isZero();
    return new ObjectMapper().readTree(out.toString());
  }

  @Test
  void thePage_fitsA1280AndA390PxScreen_withEveryLabelInsideOrElidedWithATitle() throws Exception {
    JsonNode report = runWideTable();
    assertThat(report.get("compacted").asBoolean()).isTrue();
    assertThat(report.get("partitions").get(0).get("partition").asText())
        .isEqualTo("event_date=2026-10-17-customer-segment-enterprise-north-america-east-coast");
    Path page = page(report);
    Path artifacts = Files.createDirectories(Path.of("target", "html-report-screenshots"));

    for (int width : new int[] {1280, 390}) {
      List<String> measured = measure(page, work.resolve("measured-" + width + ".html"), width);
      HeadlessChromium.screenshot(page, artifacts.resolve("report-" + width + ".png"), width, 2400);

      assertThat(measured).as("at %d px", width).contains("overflow=false");
      assertThat(measured)
          .as("at %d px", width)
          .contains(
              "section summary",
              "section gate",
              "section sizes",
              "section latency",
              "section zorder",
              "section vacuum-summary",
              "section partitions");
      assertThat(measured.contains("section timings"))
          .as("the timing section is shown exactly when the report has timings_ms")
          .isEqualTo(report.has("timings_ms"));
      List<String> labels = measured.stream().filter(l -> l.startsWith("label ")).toList();
      // gate chart, size figure and partition table: one label each per partition
      assertThat(labels).as("at %d px", width).hasSize(9);
      assertThat(labels)
          .as("at %d px: inside the viewport, or elided with the whole label as its title", width)
          .allMatch(l -> l.startsWith("label inside") || l.equals("label outside titled elided"));
      assertThat(labels)
          .as("the gate chart elides these long labels")
          .contains("label inside titled elided");
      BufferedImage image = ImageIO.read(artifacts.resolve("report-" + width + ".png").toFile());
      assertThat(image.getWidth()).isEqualTo(width);
    }
    String html = Files.readString(page);
    assertThat(html)
        .contains(
            "<title>event_date=2026-10-17-customer-segment-enterprise-north-america-east-coast</title>")
        .contains(
            f(
                "data-field=\"point_lookup_files\">%.1f → %.1f</th>",
                report.at("/zorder_skipping/point_lookup_files_before").asDouble(),
                report.at("/zorder_skipping/point_lookup_files_after").asDouble()))
        .contains(
            f(
                "data-field=\"file_fraction\">%.2f → %.2f</th>",
                report.at("/zorder_skipping/file_fraction_before").asDouble(),
                report.at("/zorder_skipping/file_fraction_after").asDouble()))
        .contains("<code data-field=\"zorder_columns\">customer_id</code>");
  }

  private static int pixels(BufferedImage image, int rgb) {
    int count = 0;
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        if ((image.getRGB(x, y) & 0xFFFFFF) == rgb) {
          count++;
        }
      }
    }
    return count;
  }
}
