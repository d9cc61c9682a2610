package company.data.compactor.faults;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.testing.FaultProxy.Fault;
import company.data.compactor.testing.FaultScenario;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commit lane under faults of the log's PUT and of the uploads beside it: a commit whose answer
 * is lost is read back and counted once, commits land in the plan's order, and an upload failing
 * beside a commit in flight lets that commit end before the run fails.
 */
class CommitLaneOrderIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String DATA_FILE = "/test-[^/]+/t/event_date(=|%3D)[^/]+/[^/]+\\.parquet.*";
  private static final String COMMIT_31 = "/test-[^/]+/t/_delta_log/0{18}31\\.json.*";
  private static final String COMMIT_32 = "/test-[^/]+/t/_delta_log/0{18}32\\.json.*";

  @TempDir Path work;

  private static List<String> field(JsonNode report, String name) {
    List<String> values = new ArrayList<>();
    report.get("compaction_partitions").forEach(p -> values.add(p.path(name).asText()));
    return values;
  }

  @Test
  void aCommitWhoseAnswerIsLost_whileTheNextPartitionUploads_isReadBackAndCountedOnce()
      throws Exception {
    try (FaultScenario table = FaultScenario.fresh(work)) {
      table.s3().on("PUT", COMMIT_31, 1, 1, new Fault.Delayed(800, new Fault.DropResponse()));

      FaultScenario.Result run = table.run(table.environment());

      assertThat(run.code()).as(run.err()).isZero();
      JsonNode report = JSON.readTree(run.out());
      assertThat(report.get("version_after").asLong()).isEqualTo(33);
      assertThat(field(report, "status")).containsExactly("committed", "committed", "committed");
      assertThat(field(report, "committed_version")).containsExactly("31", "32", "33");
      assertThat(table.snapshot().version()).isEqualTo(33);
      assertThat(table.orphans()).isEmpty();
      assertThat(table.rowsAndDistinctIds())
          .containsExactly(FaultScenario.ROWS, FaultScenario.ROWS);
    }
  }

  @Test
  void anUploadRefusedForGood_besideACommitInFlight_letsThatCommitEnd_andLeavesNothing()
      throws Exception {
    try (FaultScenario table = FaultScenario.fresh(work)) {
      table.s3().on("PUT", COMMIT_32, 1, 1, new Fault.Delayed(1500, null));
      table.s3().on("PUT", DATA_FILE, 3, 1000, Fault.s3(403, "AccessDenied"));

      FaultScenario.Result run = table.run(table.environment());

      assertThat(run.code()).as(run.out()).isEqualTo(1);
      assertThat(run.err())
          .startsWith(
              "compactor: error: Failed while uploading rewritten file "
                  + table.uri()
                  + "/event_date=2026-10-19/")
          .contains(
              "of partition event_date=2026-10-19 (nothing of this partition was committed; its"
                  + " files uploaded so far are deleted)");
      assertThat(table.snapshot().version())
          .as("the second partition's commit, in flight while the third uploaded, ended first")
          .isEqualTo(32);
      assertThat(table.orphans()).isEmpty();
      assertThat(table.rowsAndDistinctIds())
          .containsExactly(FaultScenario.ROWS, FaultScenario.ROWS);
    }
  }

  @Test
  void theSecondCommitsAnswerLost_andItsReadBackRefused_stopsTheThirdCommit_keepingOnlyItsFiles()
      throws Exception {
    try (FaultScenario table = FaultScenario.fresh(work)) {
      table.s3().on("PUT", COMMIT_32, 1, 1, new Fault.Delayed(500, new Fault.DropResponse()));
      table.s3().on("GET", COMMIT_32, 1, 1000, Fault.s3(503, "SlowDown"));
      table.s3().on("HEAD", COMMIT_32, 1, 1000, Fault.s3(503, "SlowDown"));

      FaultScenario.Result run = table.run(table.environment());

      assertThat(run.code()).as(run.out()).isEqualTo(1);
      assertThat(table.snapshot().version())
          .as("commit 32 is in the log (its answer was lost); 33 never ran")
          .isEqualTo(32);
      assertThat(table.orphans())
          .as("the third partition's upload is deleted; the second's files are committed")
          .isEmpty();
      assertThat(table.rowsAndDistinctIds())
          .containsExactly(FaultScenario.ROWS, FaultScenario.ROWS);
    }
  }
}
