package company.data.compactor.faults;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.testing.FaultProxy;
import company.data.compactor.testing.FaultProxy.Fault;
import company.data.compactor.testing.FaultScenario;
import company.data.compactor.wiring.Wiring;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On object stores a partition's commit runs beside the next partition's uploads (the commit lane):
 * a slow commit does not hold them back, and when a commit fails or finds the run fenced, the
 * uploads that went on beside it are deleted, never committed and never left behind.
 */
class CommitLaneIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String DATA_FILE = "/test-[^/]+/t/event_date(=|%3D)[^/]+/[^/]+\\.parquet.*";
  private static final String COMMIT_31 = "/test-[^/]+/t/_delta_log/0{18}31\\.json.*";

  @TempDir Path work;

  @Test
  void aSlowCommit_doesNotHoldBackTheNextPartitionsUpload() throws Exception {
    try (FaultScenario table = FaultScenario.fresh(work)) {
      table.s3().on("PUT", COMMIT_31, 1, 1, new Fault.Delayed(1500, null));

      FaultScenario.Result run = table.run(table.environment());

      assertThat(run.code()).as(run.err()).isZero();
      JsonNode report = JSON.readTree(run.out());
      assertThat(report.get("version_after").asLong()).isEqualTo(33);
      FaultProxy.Seen commit = only(table, "PUT", COMMIT_31);
      List<FaultProxy.Seen> uploads =
          all(table, "PUT", DATA_FILE).stream()
              .sorted(java.util.Comparator.comparingLong(FaultProxy.Seen::startedNanos))
              .toList();
      assertThat(uploads).hasSize(3);
      assertThat(uploads.get(1).startedNanos())
          .as(
              "the second partition's output went up before the first partition's commit, held"
                  + " back 1.5 s, was written")
          .isLessThan(commit.endedNanos());
      CommitFaultsIT.assertConverged(table, table.environment());
    }
  }

  @Test
  void aCommitFailingWhileTheNextPartitionUploads_stopsTheRun_andDeletesThoseUploads()
      throws Exception {
    try (FaultScenario table = FaultScenario.fresh(work)) {
      table
          .s3()
          .on(
              "PUT",
              COMMIT_31,
              1,
              1000,
              new Fault.Delayed(700, Fault.s3(503, "ServiceUnavailable")));

      FaultScenario.Result run = table.run(table.environment());

      assertThat(run.code()).as(run.out()).isEqualTo(1);
      assertThat(run.err()).contains("The OPTIMIZE commit of " + table.uri() + " was not written");
      assertThat(all(table, "PUT", DATA_FILE))
          .as("the second partition's output was uploaded beside the failing commit")
          .hasSizeGreaterThanOrEqualTo(2);
      Set<String> orphans = table.orphans();
      assertThat(orphans)
          .as("only the failed commit's own file is kept (its write may still land)")
          .hasSize(1);
      assertThat(table.snapshot().version()).isEqualTo(30);
      assertThat(table.rowsAndDistinctIds())
          .containsExactly(FaultScenario.ROWS, FaultScenario.ROWS);
    }
  }

  @Test
  void aLeaseLostAtTheFirstCommit_fencesTheLaterPartitions_andDeletesTheirUploads()
      throws Exception {
    try (FaultScenario table = FaultScenario.fresh(work)) {
      // The second partition's upload is held back long enough for another run to take the lease
      // once the first partition's commit is in the log.
      table.s3().on("PUT", DATA_FILE, 2, 2, new Fault.Delayed(1500, null));
      String firstCommit = table.uri() + "/_delta_log/00000000000000000031.json";
      AtomicReference<String> takenBy = new AtomicReference<>();
      Thread taker =
          new Thread(
              () -> {
                long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
                while (System.nanoTime() < deadline) {
                  try {
                    table.storage().stat(firstCommit);
                    break;
                  } catch (java.io.IOException notYet) {
                    Thread.onSpinWait();
                  }
                }
                Clock later = Clock.fixed(Instant.now().plus(Duration.ofHours(1)), ZoneOffset.UTC);
                takenBy.set(
                    Wiring.leases(work.resolve("taker"), table.environment(), later)
                        .take(table.location(), "taker")
                        .owner());
              });
      taker.start();

      FaultScenario.Result run = table.run(table.environment());
      taker.join();

      assertThat(takenBy.get()).isEqualTo("taker");
      assertThat(run.code()).as(run.err()).isEqualTo(1);
      JsonNode report = JSON.readTree(run.out());
      List<String> statuses = new ArrayList<>();
      report.get("compaction_partitions").forEach(p -> statuses.add(p.get("status").asText()));
      assertThat(statuses).containsExactly("committed", "fenced", "fenced");
      assertThat(table.snapshot().version()).isEqualTo(31);
      assertThat(table.orphans()).as("the fenced partitions' uploads are deleted").isEmpty();
      assertThat(table.rowsAndDistinctIds())
          .containsExactly(FaultScenario.ROWS, FaultScenario.ROWS);
    }
  }

  private static List<FaultProxy.Seen> all(FaultScenario table, String method, String path) {
    return table.s3().seen().stream()
        .filter(s -> s.method().equals(method) && s.path().matches(path))
        .toList();
  }

  private static FaultProxy.Seen only(FaultScenario table, String method, String path) {
    List<FaultProxy.Seen> seen = all(table, method, path);
    assertThat(seen).hasSize(1);
    return seen.get(0);
  }
}
