package company.data.compactor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.delta.kernel.KernelDeltaTables;
import company.data.compactor.delta.kernel.KernelTableWriter;
import company.data.compactor.demo.DemoSeeder;
import company.data.compactor.lease.Lease;
import company.data.compactor.lease.LeaseAttempt;
import company.data.compactor.lease.LeaseStore;
import company.data.compactor.lease.TableLeaseStore;
import company.data.compactor.model.TableLocation;
import company.data.compactor.report.RunState;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.testing.CliRunner;
import company.data.compactor.testing.CliRunner.Result;
import company.data.compactor.wiring.Wiring;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One run per table, whatever the work directory (issue 16 item 4): leases live with the table, and
 * a run whose lease another run took over stops before its next commit.
 */
class LeaseCliIT {

  private static final Map<String, String> ENV = Map.of();

  @TempDir Path tables;
  @TempDir Path workA;
  @TempDir Path workB;

  private final LocalStorage storage = new LocalStorage();

  private TableLocation seededDemo() {
    TableLocation location = TableLocation.parse(tables.resolve("events").toString(), tables);
    KernelDeltaTables kernel = new KernelDeltaTables(storage);
    new DemoSeeder(storage, kernel, new KernelTableWriter(storage)).seed(location);
    return location;
  }

  private static List<String> log(TableLocation table) throws IOException {
    try (Stream<Path> files = Files.list(table.localPath().resolve("_delta_log"))) {
      return files
          .map(f -> f.getFileName().toString())
          .filter(n -> n.endsWith(".json"))
          .sorted()
          .toList();
    }
  }

  private static long parquetFiles(TableLocation table) throws IOException {
    try (Stream<Path> files = Files.walk(table.localPath())) {
      return files.filter(f -> f.toString().endsWith(".parquet")).count();
    }
  }

  @Test
  void aRunFromAnotherWorkDir_isRefused_namingTheHolder_andTouchesNothing() throws Exception {
    TableLocation table = seededDemo();
    Lease held = Wiring.leases(workA, ENV, Clock.systemUTC()).take(table, "run-from-work-dir-a");
    List<String> logBefore = log(table);

    Result second =
        CliRunner.run(
            ENV,
            "run",
            "--work-dir",
            workB.toString(),
            "--table-uri",
            table.uri(),
            "--demo-mode",
            "false");

    assertThat(second.code()).as(second.err()).isEqualTo(1);
    assertThat(second.err())
        .contains(
            "Refused to maintain "
                + table
                + ": run run-from-work-dir-a holds the table's lease until "
                + held.expiresAt());
    assertThat(log(table)).isEqualTo(logBefore);
  }

  @Test
  void aLeaseTakenOverMidRun_stopsTheRunBeforeItsNextCommit_withNothingLost() throws Exception {
    TableLocation table = seededDemo();
    List<String> logBefore = log(table);
    long parquetBefore = parquetFiles(table);
    Path firstCompaction =
        table
            .localPath()
            .resolve("_delta_log")
            .resolve(String.format("%020d.json", logBefore.size()));
    AtomicReference<String> takenBy = new AtomicReference<>();
    // Another run whose clock says the lease expired takes it as soon as the first partition
    // commits, before the second partition's commit.
    Thread taker =
        new Thread(
            () -> {
              long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
              while (!Files.exists(firstCompaction) && System.nanoTime() < deadline) {
                Thread.onSpinWait();
              }
              Clock later = Clock.fixed(Instant.now().plus(Duration.ofHours(1)), ZoneOffset.UTC);
              takenBy.set(Wiring.leases(workB, ENV, later).take(table, "taker").owner());
            });
    taker.start();

    Result run =
        CliRunner.run(
            ENV,
            "run",
            "--json",
            "--work-dir",
            workA.toString(),
            "--table-uri",
            table.uri(),
            "--demo-mode",
            "false",
            "--z-order-columns",
            "");
    taker.join();

    assertThat(takenBy.get()).isEqualTo("taker");
    assertThat(run.code()).as(run.err()).isEqualTo(1);
    JsonNode report = new ObjectMapper().readTree(run.out());
    List<String> statuses = new ArrayList<>();
    report.get("compaction_partitions").forEach(p -> statuses.add(p.get("status").asText()));
    assertThat(statuses).containsExactly("committed", "fenced", "fenced");
    assertThat(report.get("compaction_partitions").get(1).get("detail").asText())
        .contains("for run " + report.get("execution_id").asText())
        .contains("(fenced)");
    assertThat(report.get("lease_release_status").asText()).isEqualTo("lost");
    JsonNode vacuumStep = report.get("steps").get(report.get("steps").size() - 1);
    assertThat(vacuumStep.get("step").asText()).isEqualTo("vacuum");
    assertThat(vacuumStep.get("status").asText()).isEqualTo("failed");
    assertThat(vacuumStep.get("detail").asText())
        .isEqualTo(RunState.VACUUM_FENCED + "it lost the table's lease during compaction");
    assertThat(
            report.path("candidate_files_count").isMissingNode()
                || report.path("candidate_files_count").isNull())
        .as("vacuum did not run")
        .isTrue();
    assertThat(report.has("fenced")).as("no field added by accident").isFalse();
    assertThat(report.get("files_removed").asInt()).isEqualTo(10);
    assertThat(log(table)).as("exactly one compaction commit").hasSize(logBefore.size() + 1);
    assertThat(parquetFiles(table))
        .as("the committed partition's output stays; the fenced partitions' uploads are deleted")
        .isEqualTo(parquetBefore + 1);
    Result inspect =
        CliRunner.run(
            ENV, "inspect", "--json", "--work-dir", workB.toString(), "--table-uri", table.uri());
    JsonNode health = new ObjectMapper().readTree(inspect.out());
    assertThat(health.get("total_rows").asLong()).isEqualTo(1500);
    assertThat(health.get("total_files").asInt()).isEqualTo(21);
  }

  @Test
  void aRunLongerThanItsTtl_keepsItsLease_byHeartbeat() throws Exception {
    TableLocation table = seededDemo();
    // A 3 s TTL, and a probe of 1,200 timed reads before and after, so the run outlasts its TTL
    // (400 took 2.6 s once the passes stopped starting a database each, 2026-12-07).
    Map<String, String> env =
        Map.of(
            "COMPACTOR_LEASE_TTL_SECONDS",
            "3",
            // The probe's time budget lifted, so its reads are not cut short.
            "COMPACTOR_PROBE_RUNS",
            "1200",
            "COMPACTOR_PROBE_BUDGET_MIN_MS",
            "60000");
    LeaseStore intruder = new TableLeaseStore(l -> new LocalStorage());
    List<String> attempts = new java.util.concurrent.CopyOnWriteArrayList<>();
    java.util.concurrent.atomic.AtomicBoolean running =
        new java.util.concurrent.atomic.AtomicBoolean(true);
    Thread watcher =
        new Thread(
            () -> {
              while (running.get()) {
                try {
                  Thread.sleep(500);
                } catch (InterruptedException e) {
                  return;
                }
                Path leases = table.localPath().resolve(TableLeaseStore.DIRECTORY);
                if (!Files.exists(leases)) {
                  continue;
                }
                if (newestRecord(leases).contains("\"state\":\"released\"")) {
                  return; // the run finished and gave its lease back
                }
                LeaseAttempt attempt =
                    intruder.tryAcquire(table, "intruder", Instant.now(), Duration.ofSeconds(3));
                attempts.add(attempt.succeeded() ? "intruder took it" : "held");
                attempt.acquired().ifPresent(intruder::release);
              }
            });
    watcher.start();

    Result run;
    try {
      run =
          CliRunner.run(
              env,
              "run",
              "--json",
              "--work-dir",
              workA.toString(),
              "--table-uri",
              table.uri(),
              "--demo-mode",
              "false");
    } finally {
      running.set(false);
      watcher.join();
    }

    assertThat(run.code()).as(run.err()).isZero();
    JsonNode report = new ObjectMapper().readTree(run.out());
    assertThat(report.get("duration_ms").asLong())
        .as("the run outlasted its 3 s TTL")
        .isGreaterThan(4_000);
    assertThat(attempts).isNotEmpty().containsOnly("held");
    assertThat(report.get("files_after").asInt()).isEqualTo(3);
    assertThat(report.get("lease_release_status").asText()).isEqualTo("released");
  }

  private static String newestRecord(Path leases) {
    try (Stream<Path> files = Files.list(leases)) {
      Path newest =
          files
              .filter(f -> f.getFileName().toString().startsWith("lease-"))
              .sorted()
              .reduce((a, b) -> b)
              .orElseThrow();
      return Files.readString(newest);
    } catch (IOException | RuntimeException e) {
      return ""; // between a create and the deletion of the older record: look again
    }
  }
}
