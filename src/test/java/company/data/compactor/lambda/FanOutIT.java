package company.data.compactor.lambda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.delta.kernel.KernelDeltaTables;
import company.data.compactor.error.CompactorException;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.Storage;
import company.data.compactor.testing.DynoxideServer;
import company.data.compactor.testing.S3ProxyServer;
import company.data.compactor.wiring.Wiring;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The state machine's run, Plan -> N concurrent partition workers -> Finalize, each task through
 * the real handler ({@link FanOutTasks}, what the {@code fanout} function runs), on threads in
 * place of the Distributed Map, against S3Proxy (table, plans) and Dynoxide (leases, telemetry).
 */
class FanOutIT {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path work;

  private final List<String> metricLines = new CopyOnWriteArrayList<>();
  private Map<String, String> env;
  private String tableUri;
  private String leaseTable;

  @BeforeEach
  void servers() {
    S3ProxyServer s3 = S3ProxyServer.shared();
    DynoxideServer dynamo = DynoxideServer.shared();
    String bucket = s3.newBucket();
    leaseTable = dynamo.newLeaseTable();
    env = new HashMap<>(s3.environment());
    env.putAll(dynamo.environment());
    env.put("COMPACTOR_LEASE_TABLE", leaseTable);
    env.put("COMPACTOR_TELEMETRY_TABLE", dynamo.newTelemetryTable());
    env.put("COMPACTOR_PLAN_PREFIX", "s3://" + bucket + "/compactor/plans");
    env.put("COMPACTOR_REPORT_PREFIX", "s3://" + bucket + "/compactor/reports");
    tableUri = "s3://" + bucket + "/tables/events";
  }

  private FanOutTasks tasks(Map<String, String> environment) {
    return new FanOutTasks(environment, work, Clock.systemUTC(), metricLines::add);
  }

  private Map<String, Object> inputs() {
    Map<String, Object> inputs = new LinkedHashMap<>();
    inputs.put("table_uri", tableUri);
    inputs.put("demo_mode", true);
    return inputs;
  }

  private Map<String, Object> plan() {
    return plan(inputs());
  }

  private Map<String, Object> plan(Map<String, Object> inputs) {
    Map<String, Object> event = new LinkedHashMap<>();
    event.put("task", "plan");
    event.put("run_id", "run-" + System.nanoTime());
    event.put("inputs", inputs);
    event.put("execution_reason", "test: over budget");
    return tasks(env).handle(event);
  }

  private static Map<String, Object> itemEvent(Map<String, Object> planned, int item) {
    Map<String, Object> event = new LinkedHashMap<>();
    event.put("task", "compact");
    event.put("run_id", planned.get("run_id"));
    event.put("inputs", planned.get("inputs"));
    event.put("lease", planned.get("lease"));
    event.put("item", item);
    return event;
  }

  private Map<String, Object> finalizeRun(Map<String, Object> planned, List<Object> results) {
    Map<String, Object> event = new LinkedHashMap<>();
    event.put("task", "finalize");
    event.put("run_id", planned.get("run_id"));
    event.put("inputs", planned.get("inputs"));
    event.put("lease", planned.get("lease"));
    event.put("execution_reason", planned.get("execution_reason"));
    event.put("results", results);
    return tasks(env).handle(event);
  }

  /** Runs {@code items} at once, each on its own thread through the real handler. */
  private List<Future<Map<String, Object>>> concurrently(
      Map<String, Object> planned, Map<Integer, Map<String, String>> environments, int items)
      throws InterruptedException {
    ExecutorService pool = Executors.newFixedThreadPool(items);
    CountDownLatch start = new CountDownLatch(1);
    List<Callable<Map<String, Object>>> calls = new ArrayList<>();
    for (int i = 0; i < items; i++) {
      int item = i;
      calls.add(
          () -> {
            start.await();
            return tasks(environments.getOrDefault(item, env)).handle(itemEvent(planned, item));
          });
    }
    List<Future<Map<String, Object>>> futures = new ArrayList<>();
    for (Callable<Map<String, Object>> call : calls) {
      futures.add(pool.submit(call));
    }
    start.countDown();
    pool.shutdown();
    assertThat(pool.awaitTermination(5, TimeUnit.MINUTES)).isTrue();
    return futures;
  }

  private TableSnapshot latest() {
    TableLocation location = TableLocation.parse(tableUri, work);
    return new KernelDeltaTables(Wiring.storageFor(location, work, env)).loadLatest(location);
  }

  private int commits() throws Exception {
    TableLocation location = TableLocation.parse(tableUri, work);
    Storage storage = Wiring.storageFor(location, work, env);
    return (int)
        storage.listFrom(location.child("_delta_log/0")).stream()
            .filter(o -> o.name().matches("\\d{20}\\.json"))
            .count();
  }

  /** Rows and distinct event ids over the active files, read by DuckDB from downloaded copies. */
  private long[] rowsAndDistinctIds() throws Exception {
    TableSnapshot snapshot = latest();
    TableLocation location = snapshot.location();
    Storage storage = Wiring.storageFor(location, work, env);
    Path copies = Files.createDirectories(work.resolve("copies-" + System.nanoTime()));
    List<String> local = new ArrayList<>();
    int n = 0;
    for (DataFile file : snapshot.activeFiles()) {
      Path copy = copies.resolve((n++) + ".parquet");
      try (InputStream in = storage.openFrom(file.path(), 0)) {
        Files.copy(in, copy);
      }
      local.add("'" + copy + "'");
    }
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT count(*), count(DISTINCT event_id) FROM read_parquet(["
                    + String.join(", ", local)
                    + "], hive_partitioning=false)")) {
      r.next();
      return new long[] {r.getLong(1), r.getLong(2)};
    }
  }

  @Test
  void planWorkersFinalize_everyRowOnce_aRetriedItemDoesNothing_andTheRunIsComplete()
      throws Exception {
    Map<String, Object> planned = plan();
    assertThat(planned.get("item_count")).isEqualTo(3);
    assertThat(planned.get("items_key").toString()).endsWith(planned.get("run_id") + "/items.json");
    int before = commits();

    List<Future<Map<String, Object>>> done = concurrently(planned, Map.of(), 3);

    List<Object> results = new ArrayList<>();
    for (Future<Map<String, Object>> f : done) {
      Map<String, Object> result = f.get();
      assertThat(result.get("status")).as(result.toString()).isEqualTo("COMMITTED");
      assertThat(result.get("files_removed")).isEqualTo(10);
      results.add(result);
    }
    assertThat(commits()).isEqualTo(before + 3);

    // A retried item (Step Functions retries a task whose answer was lost): the log already has
    // its partition's rewrite, so it rewrites and commits nothing.
    Map<String, Object> retried = tasks(env).handle(itemEvent(planned, 1));
    assertThat(retried.get("status")).isEqualTo("ALREADY_COMMITTED");
    assertThat(retried.get("committed_version"))
        .isEqualTo(((Map<?, ?>) results.get(1)).get("committed_version"));
    assertThat(retried.get("files_added"))
        .isEqualTo(((Map<?, ?>) results.get(1)).get("files_added"));
    assertThat(commits()).isEqualTo(before + 3);

    Map<String, Object> report = finalizeRun(planned, results);

    assertThat(report.get("execution_mode")).isEqualTo("state_machine");
    assertThat(report.get("run_outcome")).isEqualTo("complete");
    assertThat(report.get("fan_out_items")).isEqualTo(3);
    assertThat(report.get("fan_out_items_committed")).isEqualTo(3);
    assertThat(report.get("execution_id")).isEqualTo(planned.get("run_id"));
    assertThat(report.get("total_files")).isEqualTo(30);
    assertThat(report.get("files_after")).isEqualTo(3);
    assertThat(report.get("files_removed")).isEqualTo(30);
    assertThat(report.get("compacted")).isEqualTo(true);
    assertThat(report.get("lease_release_status")).isEqualTo("released");
    assertThat(report.get("telemetry_status")).isEqualTo("recorded");
    assertThat(latest().activeFiles()).hasSize(3);
    assertThat(rowsAndDistinctIds()).containsExactly(1500L, 1500L);

    // The lease is free again: a new run of the table can plan, and finds nothing left to do.
    Map<String, Object> again = inputs();
    again.put("demo_mode", false);
    assertThat(plan(again).get("item_count")).isEqualTo(0);

    // One EMF line for the run and one per partition, carrying the report's figures.
    assertThat(metricLines).hasSize(1 + 3);
    JsonNode run = JSON.readTree(metricLines.get(0));
    assertThat(run.get("table").asText()).isEqualTo(tableUri);
    assertThat(run.get("FilesBefore").asInt()).isEqualTo(30);
    assertThat(run.get("FilesAfter").asInt()).isEqualTo(3);
    assertThat(run.get("Failures").asInt()).isZero();
    assertThat(run.get("RunSucceeded").asInt()).isEqualTo(1);
    assertThat(run.get("execution_mode").asText()).isEqualTo("state_machine");
  }

  @Test
  void aFailingItem_leavesTheOthersCommitted_andTheRunIsReportedPartial() throws Exception {
    Map<String, Object> planned = plan();
    assertThat(planned.get("item_count")).isEqualTo(3);
    // Item 2's worker cannot reach S3 at all (a crashed or cut-off invocation).
    Map<String, String> unreachable = new HashMap<>(env);
    unreachable.put("AWS_ENDPOINT_URL_S3", "http://127.0.0.1:9");
    unreachable.put("COMPACTOR_AWS_MAX_ATTEMPTS", "1");

    List<Future<Map<String, Object>>> done = concurrently(planned, Map.of(2, unreachable), 3);

    List<Object> results = new ArrayList<>();
    results.add(done.get(0).get());
    results.add(done.get(1).get());
    assertThatThrownBy(() -> done.get(2).get()).hasCauseInstanceOf(CompactorException.class);
    // What the state machine's Catch passes on for a failed item.
    results.add(Map.of("item", 2, "error", "States.TaskFailed", "cause", "S3 unreachable"));

    Map<String, Object> report = finalizeRun(planned, results);

    assertThat(report.get("execution_mode")).isEqualTo("state_machine");
    assertThat(report.get("run_outcome")).isEqualTo("partial");
    assertThat(report.get("fan_out_items_committed")).isEqualTo(2);
    assertThat(report.get("fan_out_items_failed")).isEqualTo(1);
    assertThat(report.get("files_removed")).isEqualTo(20);
    assertThat(report.get("files_after")).isEqualTo(12);
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> partitions =
        (List<Map<String, Object>>) report.get("compaction_partitions");
    assertThat(partitions)
        .extracting(p -> p.get("status"))
        .containsExactly("committed", "committed", "failed");
    assertThat(latest().activeFiles()).hasSize(12);
    assertThat(rowsAndDistinctIds()).containsExactly(1500L, 1500L);
    JsonNode run = JSON.readTree(metricLines.get(0));
    assertThat(run.get("Failures").asInt()).isEqualTo(1);
    assertThat(run.get("RunPartial").asInt()).isEqualTo(1);
    assertThat(run.get("RunSucceeded").asInt()).isZero();
  }
}
