package company.data.compactor.faults;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.testing.FaultProxy.Fault;
import company.data.compactor.testing.FaultScenario;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * S3 faults around a run (issue 23, items 1, 4, 5 and 6 and the regressions that held): each leaves
 * the table readable with every row exactly once, and a re-run converges.
 */
class S3FaultsIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String DATA_FILE = "/test-[^/]+/t/event_date(=|%3D)[^/]+/[^/]+\\.parquet.*";
  private static final String COMMIT = "/test-[^/]+/t/_delta_log/\\d{20}\\.json.*";
  private static final String COMMIT_31 = "/test-[^/]+/t/_delta_log/0{18}31\\.json.*";

  @TempDir Path work;

  @Test
  void probeCannotFindAFile_theProbeFailsAlone_andMaintenanceGoesOn() throws Exception {
    try (FaultScenario table = FaultScenario.fresh(work)) {
      table.s3().on("GET", DATA_FILE, 1, 1, Fault.s3(404, "NoSuchKey"));

      FaultScenario.Result run = table.run(table.environment());

      assertThat(run.code()).as(run.err()).isZero();
      JsonNode report = JSON.readTree(run.out());
      assertThat(report.get("files_after").asInt()).isEqualTo(3);
      JsonNode probe = step(report, "probe");
      assertThat(probe.get("status").asText()).isEqualTo("failed");
      assertThat(probe.get("detail").asText())
          .startsWith(
              "advisory read-latency probe failed, maintenance went on: before compaction: Failed while probing read latency of "
                  + table.uri()
                  + " at version 30: FileNotFoundException: No such object: s3://");
      assertThat(report.get("summary").asText())
          .contains(" The probe step failed (advisory): advisory read-latency probe failed");
      CommitFaultsIT.assertConverged(table, table.environment());
    }
  }

  @Test
  void hangingGet_isCutByTheAttemptTimeoutAndRetried() throws Exception {
    try (FaultScenario table = FaultScenario.fresh(work)) {
      table.s3().on("GET", DATA_FILE, 1, 1, new Fault.Hang());

      FaultScenario.Result run = table.run(table.environment());

      assertThat(run.code()).as(run.err()).isZero();
      assertThat(step(JSON.readTree(run.out()), "probe").get("status").asText()).isEqualTo("done");
      CommitFaultsIT.assertConverged(table, table.environment());
    }
  }

  @Test
  void burstsOf503_onReadsUploadsAndCommits_areRetriedUpToTheConfiguredAttempts() throws Exception {
    try (FaultScenario table = FaultScenario.fresh(work)) {
      Map<String, String> env = new HashMap<>(table.environment());
      env.put("COMPACTOR_AWS_MAX_ATTEMPTS", "5");
      table
          .s3()
          .on("GET", DATA_FILE, 1, 4, Fault.s3(503, "SlowDown"))
          .on("PUT", COMMIT_31, 1, 4, Fault.s3(503, "SlowDown"))
          .on("PUT", DATA_FILE, 1, 4, Fault.s3(503, "SlowDown"));

      FaultScenario.Result run = table.run(env);

      assertThat(run.code()).as(run.err()).isZero();
      JsonNode report = JSON.readTree(run.out());
      assertThat(report.get("version_after").asLong()).isEqualTo(33);
      assertThat(report.get("compaction_partitions").findValuesAsText("status"))
          .containsOnly("committed");
      CommitFaultsIT.assertConverged(table, env);
    }
  }

  @Test
  void connectionsCutMidUploadAndMidCommit_nothingPartialIsCommitted_andTheWritesAreRetried()
      throws Exception {
    try (FaultScenario table = FaultScenario.fresh(work)) {
      table
          .s3()
          .on("PUT", DATA_FILE, 1, 2, new Fault.Cut())
          .on("PUT", COMMIT_31, 1, 1, new Fault.Cut());

      FaultScenario.Result run = table.run(table.environment());

      assertThat(run.code()).as(run.err()).isZero();
      assertThat(table.s3().seen()).filteredOn(r -> r.action().equals("Cut")).hasSize(3);
      assertThat(JSON.readTree(run.out()).get("version_after").asLong()).isEqualTo(33);
      CommitFaultsIT.assertConverged(table, table.environment());
    }
  }

  @Test
  void lostCommitResponse_andTheReadBackFailsToo_theLogDecides() throws Exception {
    try (FaultScenario table = FaultScenario.fresh(work)) {
      table
          .s3()
          .on("PUT", COMMIT_31, 1, 1, new Fault.DropResponse())
          .on("GET", COMMIT_31, 1, 3, Fault.s3(503, "SlowDown"));

      FaultScenario.Result run = table.run(table.environment());

      assertThat(run.code()).as(run.err()).isZero();
      JsonNode report = JSON.readTree(run.out());
      assertThat(report.get("version_after").asLong()).isEqualTo(33);
      assertThat(report.get("compaction_partitions").findValuesAsText("status"))
          .containsOnly("committed");
      CommitFaultsIT.assertConverged(table, table.environment());
    }
  }

  @Test
  void everyCommitPutFails_tableUnchanged_theErrorNamesTheCauseAndTheOrphan() throws Exception {
    try (FaultScenario table = FaultScenario.fresh(work)) {
      table.s3().on("PUT", COMMIT, 1, 1000, Fault.s3(503, "ServiceUnavailable"));

      FaultScenario.Result run = table.run(table.environment());

      assertThat(run.code()).isEqualTo(1);
      Set<String> orphans = table.orphans();
      assertThat(orphans).hasSize(1);
      String orphan = orphans.iterator().next();
      assertThat(run.err())
          .startsWith(
              "compactor: error: The OPTIMIZE commit of "
                  + table.uri()
                  + " was not written: every attempt to write "
                  + table.uri()
                  + "/_delta_log/00000000000000000031.json failed (3 attempts; last: S3 failed while writing "
                  + table.uri()
                  + "/_delta_log/00000000000000000031.json if absent: injected by FaultProxy (Service: S3, Status Code: 503")
          .contains(
              "The log up to version 30 holds no commit of this run, so the table is unchanged. Its 1 new file(s) ["
                  + orphan
                  + "] were kept in case a write still lands; if nothing references them they are orphans that a"
                  + " full-mode vacuum (--vacuum-mode full) deletes once they are older than the retention period.");
      assertThat(table.snapshot().version()).isEqualTo(30);
      assertThat(table.rowsAndDistinctIds())
          .containsExactly(FaultScenario.ROWS, FaultScenario.ROWS);

      table.s3().clear();
      FaultScenario.Result again = table.run(table.environment());
      assertThat(again.code()).as(again.err()).isZero();
      assertThat(JSON.readTree(again.out()).get("version_after").asLong()).isEqualTo(33);
      assertThat(table.rowsAndDistinctIds())
          .containsExactly(FaultScenario.ROWS, FaultScenario.ROWS);
      assertThat(table.orphans())
          .as("only the failed run's file stays, untracked, for vacuum")
          .containsExactly(orphan);
    }
  }

  @Test
  void uploadFails_isNamedAsAnUpload_andNothingIsLeftBehind() throws Exception {
    try (FaultScenario table = FaultScenario.fresh(work)) {
      table.s3().on("PUT", DATA_FILE, 1, 1000, Fault.s3(503, "ServiceUnavailable"));

      FaultScenario.Result run = table.run(table.environment());

      assertThat(run.code()).isEqualTo(1);
      assertThat(run.err())
          .startsWith(
              "compactor: error: Failed while uploading rewritten file "
                  + table.uri()
                  + "/event_date=2026-10-17/")
          .contains(
              " of partition event_date=2026-10-17 (nothing of this partition was committed; its files uploaded so"
                  + " far are deleted): IOException: S3 failed while uploading ");
      assertThat(table.snapshot().version()).isEqualTo(30);
      assertThat(table.orphans()).isEmpty();
      assertThat(table.rowsAndDistinctIds())
          .containsExactly(FaultScenario.ROWS, FaultScenario.ROWS);
      table.s3().clear();
      FaultScenario.Result again = table.run(table.environment());
      assertThat(again.code()).as(again.err()).isZero();
      assertThat(JSON.readTree(again.out()).get("version_after").asLong()).isEqualTo(33);
      CommitFaultsIT.assertConverged(table, table.environment());
    }
  }

  private static JsonNode step(JsonNode report, String name) {
    for (JsonNode step : report.get("steps")) {
      if (step.get("step").asText().equals(name)) {
        return step;
      }
    }
    throw new AssertionError("no step " + name + " in " + report.get("steps"));
  }
}
