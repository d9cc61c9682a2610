package company.data.compactor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import company.data.compactor.config.InputKey;
import company.data.compactor.lease.Lease;
import company.data.compactor.lease.TableLeaseStore;
import company.data.compactor.model.TableLocation;
import company.data.compactor.storage.LocalStorage;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line as users call it: arguments in, exit code and streams out. */
class CliIT {

  @TempDir Path work;

  private record Result(int code, String out, String err) {}

  private static Result cli(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    return new Result(code, out.toString(), err.toString());
  }

  @Test
  void run_json_onTheDemo_printsTheBlueprintFigures_andRecordsTelemetry() throws Exception {
    Result result = cli("run", "--work-dir", work.toString(), "--json");

    assertThat(result.code()).as(result.err()).isZero();
    JsonNode report = new ObjectMapper().readTree(result.out());
    assertThat(report.get("schema_version").asInt()).isEqualTo(1);
    assertThat(report.get("table_uri").asText())
        .isEqualTo("file:" + work.resolve("demo_delta_table"));
    assertThat(report.get("table_version").asLong()).isEqualTo(30);
    assertThat(report.get("total_files").asInt()).isEqualTo(30);
    assertThat(report.get("total_small_files").asInt()).isEqualTo(30);
    assertThat(report.get("small_file_ratio_pct").asDouble()).isEqualTo(100.0);
    assertThat(report.get("total_rows").asLong()).isEqualTo(1500);
    assertThat(report.get("compaction_required").asBoolean()).isTrue();
    assertThat(report.get("partitions")).hasSize(3);
    for (JsonNode partition : report.get("partitions")) {
      assertThat(partition.get("file_count").asInt()).isEqualTo(10);
      assertThat(partition.get("small_files_count").asInt()).isEqualTo(10);
      assertThat(partition.get("small_file_ratio_pct").asDouble()).isEqualTo(100.0);
    }
    assertThat(result.err())
        .contains("30 files in 3 partitions, 30 small (100.00%)")
        .contains("Compacted: 30 -> 3 files");
    assertThat(report.get("compacted").asBoolean()).isTrue();
    assertThat(report.get("version_before").asLong()).isEqualTo(30);
    assertThat(report.get("version_after").asLong()).isEqualTo(33);
    assertThat(report.get("files_before").asInt()).isEqualTo(30);
    assertThat(report.get("files_after").asInt()).isEqualTo(3);
    assertThat(report.get("files_removed").asInt()).isEqualTo(30);
    assertThat(report.get("files_added").asInt()).isEqualTo(3);
    assertThat(report.get("files_reduced").asInt()).isEqualTo(27);
    long totalBytes = 0;
    for (JsonNode partition : report.get("partitions")) {
      totalBytes += partition.get("total_bytes").asLong();
    }
    assertThat(report.get("bytes_compacted").asLong()).isEqualTo(totalBytes);
    assertThat(report.get("bytes_deferred").asLong()).isZero();
    assertThat(report.get("rows_rewritten").asLong()).isEqualTo(1500);
    assertThat(report.get("compaction_partitions"))
        .hasSize(3)
        .allSatisfy(p -> assertThat(p.get("status").asText()).isEqualTo("committed"));
    assertThat(report.get("compaction_plan").get("bins").asInt()).isEqualTo(3);
    assertThat(report.get("read_latency_pre_ms").asDouble()).isPositive();
    assertThat(report.get("read_latency_post_ms").asDouble()).isPositive();
    assertThat(report.get("latency_speedup_pct").isNumber()).isTrue();
    assertThat(report.get("latency_probe_files_pre").asInt()).isEqualTo(30);
    assertThat(report.get("latency_probe_files_post").asInt()).isEqualTo(3);
    assertThat(report.get("latency_probe_result_pre").asText()).isEqualTo("1500");
    assertThat(report.get("latency_probe_result_post").asText()).isEqualTo("1500");
    assertThat(report.get("latency_probe_method").asText())
        .contains("SELECT count(*) FROM t")
        .contains("median of 3 runs");
    assertThat(report.get("vacuum_dry_run").asBoolean()).isTrue();
    assertThat(report.get("vacuum_retention_hours").asLong()).isEqualTo(168);
    assertThat(report.get("vacuum_retention_source").asText()).isEqualTo("floor");
    assertThat(report.get("candidate_files_count").asInt())
        .as("the removed files are inside the retention")
        .isZero();
    assertThat(report.get("deleted_files_count").asInt()).isZero();

    List<String> telemetry = Files.readAllLines(work.resolve(".delta-compactor/telemetry.jsonl"));
    assertThat(telemetry).hasSize(1);
    JsonNode recorded = new ObjectMapper().readTree(telemetry.get(0));
    assertThat(recorded.get("execution_id").asText())
        .isEqualTo(report.get("execution_id").asText());
    assertThat(recorded.get("total_files").asInt()).isEqualTo(30);
  }

  @Test
  void run_invalidInputs_exit2_nameEveryViolation_andLeaveNoTableBehind() {
    Result result =
        cli(
            "run",
            "--work-dir",
            work.toString(),
            "--vacuum-retention-hours",
            "24",
            "--small-file-threshold-mb",
            "0",
            "--compaction-ratio-threshold-pct",
            "0",
            "--target-file-size-mb",
            "-5");

    assertThat(result.code()).isEqualTo(2);
    assertThat(result.err())
        .contains("4 rules broken")
        .contains("vacuum_retention_hours=24: must be >= 168")
        .contains("small_file_threshold_mb=0: must be > 0")
        .contains("compaction_ratio_threshold_pct=0: must be > 0 and <= 100")
        .contains("target_file_size_mb=-5: must be > 0");
    assertThat(result.err().lines().count()).as("one-line error").isEqualTo(1);
    assertThat(result.out()).isEmpty();
    assertThat(work).isEmptyDirectory();
  }

  @Test
  void run_unknownZOrderColumn_exit2_beforeSeeding() {
    Result result =
        cli("run", "--work-dir", work.toString(), "--z-order-columns", "customer_id,colour");

    assertThat(result.code()).isEqualTo(2);
    assertThat(result.err()).contains("colour is not a column of the table");
    assertNoTableWritten();
  }

  /** A table of id and p: no customer_id, the default z_order_columns' column. */
  private TableLocation tableWithoutCustomerId() throws Exception {
    TableLocation table = TableLocation.parse("plain", work);
    company.data.compactor.delta.kernel.TypedTables typed =
        new company.data.compactor.delta.kernel.TypedTables();
    typed.create(
        table,
        new io.delta.kernel.types.StructType()
            .add("id", io.delta.kernel.types.LongType.LONG)
            .add("p", io.delta.kernel.types.StringType.STRING),
        "p");
    for (int i = 0; i < 4; i++) {
      typed.append(
          table,
          "p",
          "a",
          "SELECT range AS id FROM range(" + (i * 10) + ", " + (i * 10 + 10) + ")",
          "in-" + i);
    }
    return table;
  }

  @Test
  void run_theDefaultZOrderColumnMissing_binPacks_andSaysSo() throws Exception {
    TableLocation table = tableWithoutCustomerId();

    Result result =
        cli(
            "run",
            "--work-dir",
            work.toString(),
            "--demo-mode",
            "false",
            "--table-uri",
            table.uri(),
            "--json");

    assertThat(result.code()).as(result.err()).isZero();
    JsonNode report = new ObjectMapper().readTree(result.out());
    assertThat(report.get("files_before").asInt()).isEqualTo(4);
    assertThat(report.get("files_after").asInt()).isEqualTo(1);
    assertThat(report.get("inputs").get("z_order_columns")).isEmpty();
    assertThat(report.get("summary").asText())
        .contains(
            "Bin-packed: the default z_order_columns [customer_id] names no column of this table;"
                + " give --z-order-columns (z_order_columns) to Z-order.");
  }

  @Test
  void run_aGivenZOrderColumnMissing_exit2_showingTheCommandLineForm() throws Exception {
    TableLocation table = tableWithoutCustomerId();

    Result result =
        cli(
            "run",
            "--work-dir",
            work.toString(),
            "--demo-mode",
            "false",
            "--table-uri",
            table.uri(),
            "--z-order-columns",
            "customer_id");

    assertThat(result.code()).isEqualTo(2);
    assertThat(result.err())
        .contains(
            "customer_id is not a column of the table (columns: id, p); name existing columns, or"
                + " pass an empty list for bin-packing only (--z-order-columns '' on the command"
                + " line)");
  }

  @Test
  void vacuum_aDryRun_leavesTheTablesOldTemporaryFiles_anApplyingOneSweepsThem() throws Exception {
    TableLocation table = tableWithoutCustomerId();
    Path leftover =
        table
            .localPath()
            .resolve("p=a/.compactor-tmp-0f8fad5b-d9cb-469f-a165-70867728950e-part-9.parquet");
    Files.writeString(leftover, "x");
    Files.setLastModifiedTime(
        leftover,
        java.nio.file.attribute.FileTime.from(Instant.now().minus(Duration.ofHours(200))));

    Result dry = cli("vacuum", "--work-dir", work.toString(), "--table-uri", table.uri(), "--json");

    assertThat(dry.code()).as(dry.err()).isZero();
    assertThat(leftover).as("a dry run deletes nothing in the table").exists();
    Result apply =
        cli(
            "vacuum",
            "--work-dir",
            work.toString(),
            "--table-uri",
            table.uri(),
            "--vacuum-dry-run",
            "false",
            "--json");
    assertThat(apply.code()).as(apply.err()).isZero();
    assertThat(leftover).doesNotExist();
    assertThat(
            new ObjectMapper()
                .readTree(apply.out())
                .get("sweep")
                .get("temporary_objects_swept")
                .asInt())
        .isEqualTo(1);
  }

  @Test
  void run_onAMissingTableWithoutDemoMode_exit1_sayingHowToFixIt() {
    Result result =
        cli("run", "--work-dir", work.toString(), "--demo-mode", "false", "--table-uri", "absent");

    assertThat(result.code()).isEqualTo(1);
    assertThat(result.err())
        .startsWith("compactor: error: No Delta table at file:" + work.resolve("absent"))
        .contains("Or pass --demo-mode=true to create the demo table there.");
  }

  @Test
  void inspect_readsATableWithoutWritingAnything() throws Exception {
    assertThat(cli("run", "--work-dir", work.toString()).code()).isZero();
    Path telemetry = work.resolve(".delta-compactor/telemetry.jsonl");
    long before = Files.readAllLines(telemetry).size();

    Result result =
        cli("inspect", "--work-dir", work.toString(), "--table-uri", "demo_delta_table", "--json");

    assertThat(result.code()).as(result.err()).isZero();
    JsonNode report = new ObjectMapper().readTree(result.out());
    assertThat(report.get("command").asText()).isEqualTo("inspect");
    assertThat(report.get("total_files").asInt()).isEqualTo(3);
    assertThat(report.get("table_version").asLong()).isEqualTo(33);
    assertThat(report.get("demo_mode").asBoolean()).isFalse();
    assertThat(report.has("compacted")).as("inspect reports no compaction").isFalse();
    assertThat(Files.readAllLines(telemetry)).hasSize((int) before);
    assertThat(work.resolve("demo_delta_table/_delta_log/00000000000000000034.json"))
        .doesNotExist();
  }

  @Test
  void run_probeQueryIsOperatorConfiguration() throws Exception {
    java.util.Map<String, String> env = new java.util.HashMap<>(System.getenv());
    env.put("COMPACTOR_PROBE_QUERY", "SELECT count(DISTINCT customer_id), sum(amount) FROM t");
    env.put("COMPACTOR_PROBE_RUNS", "1");
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();

    int code =
        Main.execute(
            new String[] {"run", "--work-dir", work.toString(), "--json"},
            new PrintWriter(out, true),
            new PrintWriter(err, true),
            env);

    assertThat(code).as(err.toString()).isZero();
    JsonNode report = new ObjectMapper().readTree(out.toString());
    assertThat(report.get("latency_probe_result_pre").asText()).isEqualTo("40,73125.0");
    assertThat(report.get("latency_probe_result_post").asText()).isEqualTo("40,73125.0");
  }

  @Test
  void run_rejectsAProbeQueryThatIsNotOneSelect_beforeTouchingAnything() {
    java.util.Map<String, String> env = new java.util.HashMap<>(System.getenv());
    env.put("COMPACTOR_PROBE_QUERY", "COPY t TO '/tmp/x'");
    StringWriter err = new StringWriter();

    int code =
        Main.execute(
            new String[] {"run", "--work-dir", work.toString()},
            new PrintWriter(new StringWriter(), true),
            new PrintWriter(err, true),
            env);

    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).contains("the probe query must be one SELECT statement over t");
    assertThat(work).isEmptyDirectory();
  }

  @Test
  void run_again_onTheCompactedTable_plansNothing() throws Exception {
    assertThat(cli("run", "--work-dir", work.toString()).code()).isZero();

    Result again = cli("run", "--work-dir", work.toString(), "--demo-mode", "false", "--json");

    assertThat(again.code()).as(again.err()).isZero();
    JsonNode report = new ObjectMapper().readTree(again.out());
    assertThat(report.get("table_version").asLong()).isEqualTo(33);
    assertThat(report.get("compacted").asBoolean()).isFalse();
    assertThat(report.get("files_removed").asInt()).isZero();
    assertThat(report.get("compaction_plan").get("bins").asInt()).isZero();
    assertThat(work.resolve("demo_delta_table/_delta_log/00000000000000000034.json"))
        .doesNotExist();
    assertThat(report.get("read_latency_post_ms").isNull()).isTrue();
    assertThat(report.get("latency_probe_files_pre").asInt()).isEqualTo(3);
  }

  @Test
  void plan_printsTheBinsRunWouldRewrite_withoutWriting() throws Exception {
    assertThat(
            cli("run", "--work-dir", work.toString(), "--small-file-threshold-mb", "0.0001").code())
        .isZero();

    Result all =
        cli("plan", "--work-dir", work.toString(), "--table-uri", "demo_delta_table", "--json");
    Result filtered =
        cli(
            "plan",
            "--work-dir",
            work.toString(),
            "--table-uri",
            "demo_delta_table",
            "--json",
            "--partition-filter",
            "event_date >= '2026-10-18'");

    assertThat(all.code()).as(all.err()).isZero();
    JsonNode plan = new ObjectMapper().readTree(all.out()).get("compaction_plan");
    assertThat(plan.get("read_version").asLong()).isEqualTo(30);
    assertThat(plan.get("bins").asInt()).isEqualTo(3);
    assertThat(plan.get("files_to_rewrite").asInt()).isEqualTo(30);
    JsonNode filteredPlan = new ObjectMapper().readTree(filtered.out()).get("compaction_plan");
    assertThat(filteredPlan.get("bins").asInt()).isEqualTo(2);
    assertThat(filteredPlan.get("partitions").get(0).get("decision").asText())
        .isEqualTo("filtered_out");
    assertThat(work.resolve("demo_delta_table/_delta_log/00000000000000000031.json"))
        .doesNotExist();
  }

  @Test
  void run_withABudget_defersTheRest() throws Exception {
    // Seeded and not compacted (the threshold is below every file): the budget is one partition's
    // bytes, whatever size the writer made the demo's files.
    assertThat(
            cli("run", "--work-dir", work.toString(), "--small-file-threshold-mb", "0.0001").code())
        .isZero();
    Result inspected =
        cli("inspect", "--work-dir", work.toString(), "--table-uri", "demo_delta_table", "--json");
    List<Long> partitionBytes = new ArrayList<>();
    new ObjectMapper()
        .readTree(inspected.out())
        .get("partitions")
        .forEach(p -> partitionBytes.add(p.get("total_bytes").asLong()));
    assertThat(partitionBytes).hasSize(3);
    long onePartition = partitionBytes.stream().mapToLong(Long::longValue).max().orElseThrow();
    long all = partitionBytes.stream().mapToLong(Long::longValue).sum();

    Result result =
        cli(
            "run",
            "--work-dir",
            work.toString(),
            "--json",
            "--demo-mode",
            "false",
            "--table-uri",
            "demo_delta_table",
            "--max-bytes-per-run",
            String.valueOf(onePartition));

    assertThat(result.code()).as(result.err()).isZero();
    JsonNode report = new ObjectMapper().readTree(result.out());
    assertThat(report.get("files_removed").asInt()).isEqualTo(10);
    assertThat(report.get("files_after").asInt()).isEqualTo(21);
    assertThat(report.get("compaction_plan").get("bins_deferred").asInt()).isEqualTo(2);
    assertThat(report.get("bytes_deferred").asLong())
        .isEqualTo(all - report.get("bytes_compacted").asLong())
        .isGreaterThan(onePartition);
  }

  @Test
  void run_invalidPartitionFilter_exit2_beforeSeeding() {
    Result result =
        cli("run", "--work-dir", work.toString(), "--partition-filter", "customer_id = 'x'");

    assertThat(result.code()).isEqualTo(2);
    assertThat(result.err())
        .contains("partition_filter=customer_id = 'x': customer_id is not a partition column");
    assertNoTableWritten();
  }

  @Test
  void run_refusesTablesWithFeaturesTheRewriteDoesNotHandle_writingNothing() throws Exception {
    company.data.compactor.model.TableLocation location =
        company.data.compactor.model.TableLocation.parse("mapped", work);
    company.data.compactor.delta.kernel.TypedTables typed =
        new company.data.compactor.delta.kernel.TypedTables();
    typed.create(
        location,
        new io.delta.kernel.types.StructType()
            .add("id", io.delta.kernel.types.LongType.LONG)
            .add("p", io.delta.kernel.types.StringType.STRING),
        "p",
        java.util.Map.of("delta.enableTypeWidening", "true"));
    typed.append(location, "p", "a", "SELECT range AS id FROM range(3)", "f1");
    typed.append(location, "p", "a", "SELECT range AS id FROM range(3, 6)", "f2");

    Result result =
        cli(
            "run",
            "--work-dir",
            work.toString(),
            "--demo-mode",
            "false",
            "--table-uri",
            "mapped",
            "--z-order-columns",
            "");

    assertThat(result.code()).isEqualTo(1);
    assertThat(result.err())
        .contains("uses table feature(s) typeWidening")
        .contains("nothing was written");
    assertThat(work.resolve("mapped/_delta_log/00000000000000000003.json")).doesNotExist();

    // Our own stale temporary object stays in a table vacuum refuses (it used to be swept first).
    Path leftover =
        location
            .localPath()
            .resolve(".compactor-tmp-0f8fad5b-d9cb-469f-a165-70867728950e-part-1.parquet");
    Files.writeString(leftover, "12345");
    Files.setLastModifiedTime(
        leftover,
        java.nio.file.attribute.FileTime.from(Instant.now().minus(Duration.ofHours(169))));
    Result vacuum =
        cli(
            "vacuum",
            "--work-dir",
            work.toString(),
            "--table-uri",
            "mapped",
            "--vacuum-dry-run",
            "false");
    assertThat(vacuum.code()).isEqualTo(1);
    assertThat(vacuum.err())
        .contains("uses table feature(s) typeWidening that vacuum does not handle yet")
        .contains("nothing was written or deleted");
    assertThat(work.resolve("mapped/_delta_log/00000000000000000003.json")).doesNotExist();
    assertThat(leftover).as("refused table: nothing deleted").exists();
  }

  @Test
  void vacuum_refuses167Hours_andRunsOnItsOwn() throws Exception {
    assertThat(cli("run", "--work-dir", work.toString()).code()).isZero();

    Result refused =
        cli(
            "vacuum",
            "--work-dir",
            work.toString(),
            "--table-uri",
            "demo_delta_table",
            "--vacuum-retention-hours",
            "167");
    Result refusedByRun =
        cli(
            "run",
            "--work-dir",
            work.toString(),
            "--demo-mode",
            "false",
            "--vacuum-retention-hours",
            "167");
    Result dryRun =
        cli(
            "vacuum",
            "--work-dir",
            work.toString(),
            "--table-uri",
            "demo_delta_table",
            "--vacuum-mode",
            "full",
            "--json");

    assertThat(refused.code()).isEqualTo(2);
    assertThat(refused.err()).contains("vacuum_retention_hours=167: must be >= 168");
    assertThat(refusedByRun.code()).isEqualTo(2);
    assertThat(dryRun.code()).as(dryRun.err()).isZero();
    JsonNode report = new ObjectMapper().readTree(dryRun.out());
    assertThat(report.get("command").asText()).isEqualTo("vacuum");
    assertThat(report.get("vacuum_mode").asText()).isEqualTo("full");
    assertThat(report.get("vacuum_dry_run").asBoolean()).isTrue();
    assertThat(report.get("candidate_files_count").asInt()).isZero();
    assertThat(report.get("vacuum_warnings").get(0).asText())
        .contains("shorter than delta.logRetentionDuration");
  }

  /**
   * Nothing but the lease record exists under the work directory (kept with the table, in its
   * hidden {@code _compactor/leases}), and it is released: the run took the table's lease, found
   * the request invalid for the table and gave the lease back.
   */
  private void assertNoTableWritten() {
    try (var files = Files.walk(work)) {
      assertThat(
              files.filter(Files::isRegularFile).map(f -> work.relativize(f).toString()).toList())
          .singleElement()
          .satisfies(
              f ->
                  assertThat(f)
                      .matches(
                          "demo_delta_table/"
                              + TableLeaseStore.DIRECTORY
                              + "/lease-\\d{20}\\.json"));
      TableLocation table = TableLocation.parse("demo_delta_table", work);
      assertThat(
              new TableLeaseStore(l -> new LocalStorage())
                  .tryAcquire(table, "next-run", Instant.now(), Duration.ofMinutes(1))
                  .succeeded())
          .as("the lease was released")
          .isTrue();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void run_andVacuum_whileAnotherRunHoldsTheTable_areRefused_namingThatRun_andTouchNothing()
      throws Exception {
    assertThat(cli("run", "--work-dir", work.toString()).code()).isZero();
    TableLocation table = TableLocation.parse("demo_delta_table", work);
    TableLeaseStore leases = new TableLeaseStore(l -> new LocalStorage());
    Lease held =
        leases
            .tryAcquire(table, "nightly-run-42", Instant.now(), Duration.ofMinutes(20))
            .acquired()
            .orElseThrow();
    List<String> logBefore;
    try (var files = Files.list(work.resolve("demo_delta_table/_delta_log"))) {
      logBefore = files.map(Path::toString).sorted().toList();
    }

    Result run = cli("run", "--work-dir", work.toString(), "--demo-mode", "false");
    Result vacuum =
        cli(
            "vacuum",
            "--work-dir",
            work.toString(),
            "--table-uri",
            "demo_delta_table",
            "--vacuum-dry-run",
            "false");
    Result inspect =
        cli("inspect", "--work-dir", work.toString(), "--table-uri", "demo_delta_table");
    leases.release(held);
    Result afterRelease =
        cli("vacuum", "--work-dir", work.toString(), "--table-uri", "demo_delta_table");

    assertThat(run.code()).isEqualTo(1);
    assertThat(run.err())
        .contains(
            "Refused to maintain " + table + ": run nightly-run-42 holds the table's lease until");
    assertThat(vacuum.code()).isEqualTo(1);
    assertThat(vacuum.err()).contains("run nightly-run-42 holds the table's lease");
    try (var files = Files.list(work.resolve("demo_delta_table/_delta_log"))) {
      assertThat(files.map(Path::toString).sorted().toList()).isEqualTo(logBefore);
    }
    assertThat(inspect.code()).as("read-only commands need no lease").isZero();
    assertThat(afterRelease.code()).as(afterRelease.err()).isZero();
  }

  @Test
  void history_showsRecordsWithoutTheBlueprintFields_andRecordsWithThem() throws Exception {
    assertThat(cli("run", "--work-dir", work.toString()).code()).isZero();
    assertThat(
            cli("vacuum", "--work-dir", work.toString(), "--table-uri", "demo_delta_table").code())
        .isZero();
    Path telemetry = work.resolve(".delta-compactor/telemetry.jsonl");
    // A record as stored before the blueprint's fields: the run's record without them.
    ObjectNode old = (ObjectNode) new ObjectMapper().readTree(Files.readAllLines(telemetry).get(0));
    old.remove(
        List.of(
            "total_files_before",
            "small_files_before",
            "compaction_executed",
            "vacuum_candidate_files",
            "vacuum_deleted_files",
            "small_file_threshold_mb",
            "compaction_ratio_threshold_pct"));
    old.put("execution_id", "old-record").put("evaluated_at", "2026-01-01T00:00:00Z");
    Files.writeString(telemetry, old + "\n", StandardOpenOption.APPEND);

    Result text = cli("history", "--work-dir", work.toString(), "--table-uri", "demo_delta_table");
    Result json =
        cli("history", "--work-dir", work.toString(), "--table-uri", "demo_delta_table", "--json");

    assertThat(text.code()).as(text.err()).isZero();
    List<List<String>> rows =
        text.out().lines().skip(2).map(l -> List.of(l.trim().split("\\s+"))).toList();
    assertThat(rows).hasSize(3);
    // evaluated_at, command, execution_id, files, small%, compacted, files_after, vacuum c/d,
    // latency ms
    assertThat(rows.get(0).subList(1, 8))
        .as("the vacuum command's record")
        .containsExactly("vacuum", rows.get(0).get(2), "3", "100.0", "false", "3", "0/0");
    assertThat(rows.get(0).get(8)).as("vacuum measures no latency").isEqualTo("-");
    assertThat(rows.get(1).subList(3, 8))
        .as("the run's record")
        .containsExactly("30", "100.0", "true", "3", "0/0");
    assertThat(rows.get(2).subList(2, 8))
        .as("the record without the blueprint's fields")
        .containsExactly("old-record", "30", "100.0", "true", "3", "0/0");
    JsonNode runs = new ObjectMapper().readTree(json.out());
    assertThat(runs.get(1).get("total_files_before").asInt()).isEqualTo(30);
    assertThat(runs.get(2).has("total_files_before")).as("shown as stored").isFalse();
    assertThat(runs.get(2).get("total_files").asInt()).isEqualTo(30);
  }

  @Test
  void inspect_withoutTableUri_exit2() {
    Result result = cli("inspect");

    assertThat(result.code()).isEqualTo(2);
    assertThat(result.err()).contains("Missing required option: '--table-uri=URI'");
  }

  @Test
  void unknownOption_exit2_withAPointerToHelp() {
    Result result = cli("run", "--retention", "1");

    assertThat(result.code()).isEqualTo(2);
    assertThat(result.err())
        .contains("Unknown options: '--retention', '1'")
        .contains("compactor run --help");
  }

  @Test
  void help_listsCommands_andRunHelpListsEveryInputWithItsDefault() {
    Result top = cli("--help");
    assertThat(top.code()).isZero();
    assertThat(top.out())
        .contains("run")
        .contains("inspect")
        .contains("Exit codes: 0 success, 2 invalid input");

    Result run = cli("run", "--help");
    assertThat(run.code()).isZero();
    for (InputKey key : InputKey.values()) {
      assertThat(run.out()).contains(key.flag());
    }
    assertThat(run.out())
        .contains("Default: 168")
        .contains("Default: customer_id")
        .contains("--json");
  }

  @Test
  void noCommand_printsUsage_andExits2() {
    Result result = cli();

    assertThat(result.code()).isEqualTo(2);
    assertThat(result.err()).contains("Usage: compactor");
  }
}
