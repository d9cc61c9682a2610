package company.data.compactor.probe;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.cli.Main;
import company.data.compactor.model.DataFile;
import company.data.compactor.testing.FaultProxy;
import company.data.compactor.testing.FaultScenario;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The read-latency probe measures like a reader at a bounded cost: in place on local disk, a capped
 * sample fetched concurrently on S3, skipped with a reason (never failing the run) when its budget
 * cannot hold it; its settings are validated like every other input.
 */
class BoundedProbeIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String DATA_FILE = "/test-[^/]+/t/event_date(=|%3D)[^/]+/[^/]+\\.parquet.*";

  @TempDir Path work;

  private record Result(int code, String out, String err) {}

  private static Result cli(Map<String, String> env, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true), env);
    return new Result(code, out.toString(), err.toString());
  }

  private static Map<String, String> env(String... pairs) {
    Map<String, String> env = new HashMap<>(System.getenv());
    for (int i = 0; i < pairs.length; i += 2) {
      env.put(pairs[i], pairs[i + 1]);
    }
    return env;
  }

  @Test
  void localProbe_readsTheTablesFilesInPlace_nothingIsWrittenToScratch() throws Exception {
    Path probeDir = Files.createDirectories(work.resolve(".delta-compactor/probe"));
    List<String> created = new ArrayList<>();
    Result run;
    try (WatchService watcher = FileSystems.getDefault().newWatchService()) {
      WatchKey key = probeDir.register(watcher, StandardWatchEventKinds.ENTRY_CREATE);

      // A budget no slow machine runs out of: the test is about where the probe reads.
      run =
          cli(
              env("COMPACTOR_PROBE_BUDGET_MIN_MS", "600000"),
              "run",
              "--work-dir",
              work.toString(),
              "--json");

      for (WatchEvent<?> event : key.pollEvents()) {
        created.add(String.valueOf(event.context()));
      }
    }

    assertThat(run.code()).as(run.err()).isZero();
    assertThat(created).as("files or directories created in the probe's scratch").isEmpty();
    assertThat(probeDir).isEmptyDirectory();
    JsonNode report = JSON.readTree(run.out());
    assertThat(report.get("latency_probe_read").asText()).isEqualTo("in_place");
    assertThat(report.get("latency_probe_downloaded_bytes").asLong()).isZero();
    assertThat(report.get("latency_probe_files_pre").asInt()).isEqualTo(30);
    assertThat(report.get("latency_probe_files_post").asInt()).isEqualTo(3);
    assertThat(report.get("latency_probe_result_pre").asText()).isEqualTo("1500");
    assertThat(report.get("latency_probe_result_post").asText()).isEqualTo("1500");
    assertThat(report.get("latency_probe_runs_pre").asInt()).isEqualTo(3);
    assertThat(report.get("latency_probe_budget_ms").asLong()).isEqualTo(600_000);
    assertThat(report.get("latency_probe_used_ms").asLong())
        .isLessThanOrEqualTo(report.get("latency_probe_budget_ms").asLong());
  }

  @Test
  void s3Probe_downloadsAtMostTheByteCapPerPass_andSaysWhatItFetched() throws Exception {
    try (FaultScenario table = FaultScenario.fresh(work)) {
      long total = table.snapshot().activeFiles().stream().mapToLong(DataFile::sizeBytes).sum();
      long cap = total / 4;
      Map<String, String> env = new HashMap<>(table.environment());
      env.put("COMPACTOR_PROBE_MAX_BYTES", String.valueOf(cap));
      env.put("COMPACTOR_PROBE_RUNS", "1");
      env.put("COMPACTOR_PROBE_BUDGET_MIN_MS", "600000");

      // A gate no partition passes: nothing is compacted, so every data-file GET is the probe's.
      FaultScenario.Result run =
          table.run(
              env,
              "--compaction-ratio-threshold-pct",
              "100",
              "--small-file-threshold-mb",
              "0.0001");

      assertThat(run.code()).as(run.err()).isZero();
      JsonNode report = JSON.readTree(run.out());
      assertThat(report.get("compacted").asBoolean()).isFalse();
      List<FaultProxy.Seen> gets = dataFileGets(table);
      long fetched = gets.stream().mapToLong(FaultProxy.Seen::responseBodyBytes).sum();
      assertThat(report.get("latency_probe_bytes_pre").asLong())
          .isPositive()
          .isLessThanOrEqualTo(cap);
      assertThat(report.get("latency_probe_files_pre").asInt()).isBetween(1, 29);
      assertThat(report.get("latency_probe_runs_pre").asInt()).isEqualTo(1);
      assertThat(fetched)
          .as("one warm-up pass and one timed pass, each within the cap")
          .isEqualTo(2 * report.get("latency_probe_bytes_pre").asLong())
          .isLessThanOrEqualTo(2 * cap);
      assertThat(report.get("latency_probe_downloaded_bytes").asLong()).isEqualTo(fetched);
      assertThat(report.get("latency_probe_read").asText()).isEqualTo("download");
      assertThat(report.get("latency_probe_max_bytes").asLong()).isEqualTo(cap);
    }
  }

  @Test
  void s3Probe_fetchesConcurrently() throws Exception {
    try (FaultScenario table = FaultScenario.fresh(work)) {
      Map<String, String> env = new HashMap<>(table.environment());
      env.put("COMPACTOR_PROBE_CONCURRENCY", "8");
      env.put("COMPACTOR_PROBE_BUDGET_MIN_MS", "600000");

      FaultScenario.Result run =
          table.run(
              env,
              "--compaction-ratio-threshold-pct",
              "100",
              "--small-file-threshold-mb",
              "0.0001");

      assertThat(run.code()).as(run.err()).isZero();
      assertThat(FaultProxy.maxInFlight(dataFileGets(table)))
          .as("data-file GETs in flight at once")
          .isBetween(2, 8);
      assertThat(JSON.readTree(run.out()).get("latency_probe_concurrency").asInt()).isEqualTo(8);
    }
  }

  @Test
  void aBudgetTooSmallForOnePass_skipsTheProbeWithTheReason_andTheRunStillCompacts()
      throws Exception {
    Result run =
        cli(
            env("COMPACTOR_PROBE_BUDGET_PCT", "0.0001", "COMPACTOR_PROBE_BUDGET_MIN_MS", "0"),
            "run",
            "--work-dir",
            work.toString(),
            "--json");

    assertThat(run.code()).as(run.err()).isZero();
    JsonNode report = JSON.readTree(run.out());
    assertThat(report.get("files_after").asInt()).isEqualTo(3);
    JsonNode probe = step(report, "probe");
    assertThat(probe.get("status").asText()).isEqualTo("skipped");
    assertThat(probe.get("detail").asText())
        .startsWith(
            "read-latency probe skipped before compaction, maintenance went on: budget: the"
                + " warm-up pass took ")
        .contains("so no timed pass fits; raise COMPACTOR_PROBE_BUDGET_PCT");
    assertThat(report.has("read_latency_pre_ms")).isFalse();
  }

  @Test
  void invalidProbeSettings_exit2_namingEachVariableValueAndRule_beforeTouchingAnything() {
    Result run =
        cli(
            env(
                "COMPACTOR_PROBE_CONCURRENCY", "0",
                "COMPACTOR_PROBE_MAX_BYTES", "lots",
                "COMPACTOR_PROBE_BUDGET_PCT", "150"),
            "run",
            "--work-dir",
            work.toString());

    assertThat(run.code()).isEqualTo(2);
    assertThat(run.err())
        .contains("COMPACTOR_PROBE_CONCURRENCY=0: must be a whole number >= 1 and <= 256")
        .contains("COMPACTOR_PROBE_MAX_BYTES=lots: must be a whole number >= 1")
        .contains("COMPACTOR_PROBE_BUDGET_PCT=150: must be a number > 0 and <= 100");
    assertThat(work).isEmptyDirectory();
  }

  private static List<FaultProxy.Seen> dataFileGets(FaultScenario table) {
    return table.s3().seen().stream()
        .filter(s -> s.method().equals("GET") && s.path().matches(DATA_FILE))
        .toList();
  }

  static JsonNode step(JsonNode report, String name) {
    for (JsonNode step : report.get("steps")) {
      if (step.get("step").asText().equals(name)) {
        return step;
      }
    }
    throw new AssertionError("no step " + name + " in " + report.get("steps"));
  }
}
