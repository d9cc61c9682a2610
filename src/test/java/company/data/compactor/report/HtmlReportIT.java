package company.data.compactor.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.cli.Main;
import company.data.compactor.testing.HeadlessChromium;
import java.awt.image.BufferedImage;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
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
          .contains("<figcaption><code>" + p.get("partition").asText() + "</code></figcaption>")
          .contains(
              "<tr><td><code>"
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
