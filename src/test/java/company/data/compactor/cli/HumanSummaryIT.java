package company.data.compactor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a person reads on the terminal: order, columns, and verdicts that tell the truth. */
class HumanSummaryIT {

  @TempDir Path work;

  private record Result(int code, String out, String err) {}

  private static Result cli(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true), Map.of());
    return new Result(code, out.toString(), err.toString());
  }

  @Test
  void run_printsInspectionPlanCompactionVacuum_inTheOrderTheRunWorks() {
    Result run = cli("run", "--work-dir", work.toString());

    assertThat(run.code()).as(run.err()).isZero();
    String out = run.out();
    int partitions = out.indexOf("\npartition ");
    int plan = out.indexOf("\nplan       ");
    int compacted = out.indexOf("\ncompacted  ");
    int vacuum = out.indexOf("\nvacuum     ");
    int cleanup = out.indexOf("\ncleanup-log ");
    assertThat(List.of(partitions, plan, compacted, vacuum, cleanup)).doesNotContain(-1);
    assertThat(partitions).isLessThan(plan);
    assertThat(plan).isLessThan(compacted);
    assertThat(compacted).isLessThan(vacuum);
    assertThat(vacuum).isLessThan(cleanup);
    // The step column fits its longest name: every status starts in the same column.
    List<String> steps =
        out.lines()
            .filter(l -> l.matches("^(seed|inspect|compact|probe|vacuum|cleanup-log) +done .*"))
            .toList();
    assertThat(steps).hasSize(6);
    assertThat(steps).allSatisfy(l -> assertThat(l.substring(11, 13)).isEqualTo(" d"));
  }

  @Test
  void inspect_afterACompaction_saysNothingToMerge_notCompactionRequired() throws Exception {
    assertThat(cli("run", "--work-dir", work.toString()).code()).isZero();

    Result text = cli("inspect", "--work-dir", work.toString(), "--table-uri", "demo_delta_table");
    Result json =
        cli("inspect", "--work-dir", work.toString(), "--table-uri", "demo_delta_table", "--json");

    assertThat(text.code()).as(text.err()).isZero();
    assertThat(text.out())
        .contains(
            "compaction not required (nothing to merge: merging would not reduce the file count)")
        .doesNotContain("compaction required");
    // The compacted size varies by a few hundred bytes with the demo's generated values.
    assertThat(text.err())
        .containsPattern(
            java.util.regex.Pattern.quote("3 files in 3 partitions, 3 small (100.00%), ")
                + "0\\.00\\d MB"
                + java.util.regex.Pattern.quote(
                    ", 1500 rows. Nothing to merge: the ratio reaches the 40.00% gate, but in 3 of 3"
                        + " partitions merging would not reduce the file count (one small file"
                        + " each, or small files that fill as many 128 MB outputs)."))
        .doesNotContain("Compaction required");
    JsonNode report = new ObjectMapper().readTree(json.out());
    assertThat(report.get("compaction_required").asBoolean()).isFalse();
    for (JsonNode p : report.get("partitions")) {
      assertThat(p.get("merge_verdict").asText()).isEqualTo("nothing_to_merge");
      assertThat(p.get("compactable_small_files").asInt()).isZero();
      assertThat(p.get("small_file_ratio_pct").asDouble()).isEqualTo(100.0);
    }

    Result plan = cli("plan", "--work-dir", work.toString(), "--table-uri", "demo_delta_table");
    assertThat(plan.out()).contains("nothing_to_merge").doesNotContain("below_gate");
  }

  @Test
  void zOrderSkipping_reportsTheFilesAndBytesAPointLookupReads_nextToTheFraction()
      throws Exception {
    Result run = cli("run", "--work-dir", work.toString(), "--json");

    assertThat(run.code()).as(run.err()).isZero();
    JsonNode skipping = new ObjectMapper().readTree(run.out()).get("zorder_skipping");
    assertThat(skipping.get("columns").toString()).isEqualTo("[\"customer_id\"]");
    // 30 files in 3 partitions become 3: a lookup can never read more than every file.
    double filesBefore = skipping.get("point_lookup_files_before").asDouble();
    double filesAfter = skipping.get("point_lookup_files_after").asDouble();
    assertThat(filesBefore).isGreaterThan(filesAfter).isLessThanOrEqualTo(30);
    assertThat(filesAfter).isGreaterThan(0).isLessThanOrEqualTo(3);
    assertThat(skipping.get("point_lookup_bytes_before").asLong()).isPositive();
    assertThat(skipping.get("point_lookup_bytes_after").asLong()).isPositive();
    assertThat(skipping.get("per_column").get(0).get("point_lookup_files_after").asDouble())
        .isEqualTo(filesAfter);
    assertThat(run.err())
        .contains(
            String.format(
                java.util.Locale.ROOT,
                "Z-order by customer_id: a point lookup reads %.1f -> %.1f files (",
                filesBefore,
                filesAfter))
        .contains(
            String.format(
                java.util.Locale.ROOT,
                "of the rewritten partitions; file fraction %.2f -> %.2f.",
                skipping.get("file_fraction_before").asDouble(),
                skipping.get("file_fraction_after").asDouble()));
  }

  @Test
  void history_showsADash_forARunThatMeasuredNoLatency() {
    assertThat(cli("run", "--work-dir", work.toString()).code()).isZero();
    Result vacuum = cli("vacuum", "--work-dir", work.toString(), "--table-uri", "demo_delta_table");
    assertThat(vacuum.code()).as(vacuum.err()).isZero();

    Result history =
        cli("history", "--work-dir", work.toString(), "--table-uri", "demo_delta_table");

    assertThat(history.code()).as(history.err()).isZero();
    assertThat(history.out()).doesNotContain("-->-");
    String vacuumLine =
        history.out().lines().filter(l -> l.matches("\\S+ +vacuum .*")).findFirst().orElseThrow();
    assertThat(vacuumLine).endsWith(" -");
    String runLine =
        history.out().lines().filter(l -> l.matches("\\S+ +run .*")).findFirst().orElseThrow();
    assertThat(runLine).matches(".* \\d+\\.\\d->\\d+\\.\\d$");
  }

  @Test
  void longPartitionLabels_areElidedInTheMiddle_toOneColumnWidth_andWholeInTheJson()
      throws Exception {
    Path table = work.resolve("wide");
    String longA = "customer-segment-enterprise-north-america-east-coast-0001";
    String longB = "customer-segment-enterprise-north-america-east-coast-0002";
    Files.createDirectories(table.resolve("_delta_log"));
    StringBuilder log = new StringBuilder();
    log.append("{\"commitInfo\":{\"timestamp\":1,\"operation\":\"WRITE\"}}\n")
        .append("{\"protocol\":{\"minReaderVersion\":1,\"minWriterVersion\":2}}\n")
        .append(
            "{\"metaData\":{\"id\":\"6f0c8c1e-0000-4000-8000-000000000020\",\"format\":{\"provider\":\"parquet\",\"options\":{}},"
                + "\"schemaString\":\"{\\\"type\\\":\\\"struct\\\",\\\"fields\\\":[{\\\"name\\\":\\\"id\\\",\\\"type\\\":\\\"long\\\",\\\"nullable\\\":true,\\\"metadata\\\":{}},"
                + "{\\\"name\\\":\\\"segment\\\",\\\"type\\\":\\\"string\\\",\\\"nullable\\\":true,\\\"metadata\\\":{}}]}\","
                + "\"partitionColumns\":[\"segment\"],\"configuration\":{},\"createdTime\":1}}\n");
    int n = 0;
    for (String segment : List.of(longA, longB, "short")) {
      for (int i = 0; i < 2; i++) {
        String path = "segment=" + segment + "/part-" + n++ + ".parquet";
        Files.createDirectories(table.resolve(path).getParent());
        Files.writeString(table.resolve(path), "x");
        log.append("{\"add\":{\"path\":\"")
            .append(path)
            .append("\",\"partitionValues\":{\"segment\":\"")
            .append(segment)
            .append("\"},\"size\":1000,\"modificationTime\":1,\"dataChange\":true,")
            .append("\"stats\":\"{\\\"numRecords\\\":1}\"}}\n");
      }
    }
    Files.writeString(table.resolve("_delta_log/00000000000000000000.json"), log.toString());

    Result text = cli("inspect", "--work-dir", work.toString(), "--table-uri", "wide");
    Result json = cli("inspect", "--work-dir", work.toString(), "--table-uri", "wide", "--json");

    assertThat(text.code()).as(text.err()).isZero();
    List<String> rows =
        text.out()
            .lines()
            .filter(l -> l.startsWith("segment=") || l.startsWith("partition"))
            .toList();
    assertThat(rows).hasSize(4);
    // Every row's figures start in the same column, whatever the label's length.
    assertThat(rows)
        .extracting(l -> l.substring(ReportText.LABEL_WIDTH, ReportText.LABEL_WIDTH + 8).trim())
        .containsExactly("files", "2", "2", "2");
    assertThat(rows)
        .extracting(l -> l.substring(0, ReportText.LABEL_WIDTH))
        .containsExactly(
            "partition                               ",
            "segment=customer-se…rica-east-coast-0001",
            "segment=customer-se…rica-east-coast-0002",
            "segment=short                           ");
    JsonNode report = new ObjectMapper().readTree(json.out());
    assertThat(report.get("partitions"))
        .extracting(p -> p.get("partition").asText())
        .containsExactly("segment=" + longA, "segment=" + longB, "segment=short");
    assertThat(Arrays.stream(text.out().split("\n")).filter(l -> l.contains(longA))).isEmpty();
  }
}
