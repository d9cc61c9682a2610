package company.data.compactor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code timings_ms}: where each command's time went, phase by phase, as the report says. */
class PhaseTimingsIT {

  private static final List<String> KEYS =
      List.of(
          "inspect",
          "probe_before",
          "download",
          "rewrite",
          "verify",
          "upload",
          "commit",
          "probe_after",
          "vacuum_plan",
          "deliver",
          "wall");

  @TempDir Path work;

  private JsonNode json(String... args) throws Exception {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    assertThat(code).as(err.toString()).isZero();
    return new ObjectMapper().readTree(out.toString());
  }

  private static List<String> keys(JsonNode timings) {
    List<String> names = new ArrayList<>();
    timings.fieldNames().forEachRemaining(names::add);
    return names;
  }

  /** On local storage the phases run one after another: they fit in the run's wall time. */
  private static void sequentialWithinWall(JsonNode timings) {
    long sum = 0;
    for (String key : KEYS) {
      assertThat(timings.get(key).isIntegralNumber()).as(key).isTrue();
      assertThat(timings.get(key).asLong()).as(key).isNotNegative();
      if (!key.equals("wall")) {
        sum += timings.get(key).asLong();
      }
    }
    assertThat(sum)
        .as("the sum of the phases of " + timings)
        .isLessThanOrEqualTo(timings.get("wall").asLong());
  }

  @Test
  void run_reportsEveryPhase_underItsName_andTheyAddUpWithinTheWallTime() throws Exception {
    JsonNode report = json("run", "--work-dir", work.toString(), "--json");

    assertThat(report.get("compacted").asBoolean()).isTrue();
    JsonNode timings = report.get("timings_ms");
    assertThat(keys(timings)).containsExactlyElementsOf(KEYS);
    sequentialWithinWall(timings);
    for (String ran : List.of("inspect", "probe_before", "rewrite", "verify", "commit")) {
      assertThat(timings.get(ran).asLong()).as(ran + " of " + timings).isPositive();
    }
    assertThat(timings.get("wall").asLong())
        .isLessThanOrEqualTo(report.get("duration_ms").asLong() + 1000);
    assertThat(timings.get("rewrite").asLong() + timings.get("verify").asLong())
        .as("the rewrite and its verification are inside compaction_duration_ms")
        .isLessThanOrEqualTo(report.get("compaction_duration_ms").asLong());
  }

  @Test
  void inspect_and_vacuum_reportTheSameKeys_withThePhasesTheyDidNotRunAtZero() throws Exception {
    json("run", "--work-dir", work.toString(), "--json");

    JsonNode inspect =
        json("inspect", "--work-dir", work.toString(), "--table-uri", "demo_delta_table", "--json")
            .get("timings_ms");
    JsonNode vacuum =
        json("vacuum", "--work-dir", work.toString(), "--table-uri", "demo_delta_table", "--json")
            .get("timings_ms");

    assertThat(keys(inspect)).containsExactlyElementsOf(KEYS);
    assertThat(keys(vacuum)).containsExactlyElementsOf(KEYS);
    sequentialWithinWall(inspect);
    sequentialWithinWall(vacuum);
    assertThat(inspect.get("inspect").asLong()).isPositive();
    for (String notRun :
        List.of(
            "probe_before",
            "download",
            "rewrite",
            "verify",
            "upload",
            "commit",
            "probe_after",
            "vacuum_plan",
            "deliver")) {
      assertThat(inspect.get(notRun).asLong()).as(notRun).isZero();
      if (!notRun.equals("vacuum_plan")) {
        assertThat(vacuum.get(notRun).asLong()).as(notRun).isZero();
      }
    }
  }
}
