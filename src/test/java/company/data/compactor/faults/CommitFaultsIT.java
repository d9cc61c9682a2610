package company.data.compactor.faults;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.testing.FaultProxy.Fault;
import company.data.compactor.testing.FaultScenario;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Faults on the S3 requests that commit to the Delta log (issue 23, item 1). */
class CommitFaultsIT {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path work;

  @Test
  void lostResponseToACommitPut_isRecognisedAsOurCommit_andNoFileItReferencesIsDeleted() throws Exception {
    try (FaultScenario table = FaultScenario.fresh(work)) {
      table.s3().on("PUT", ".*/_delta_log/0{18}31\\.json.*", 1, 1, new Fault.DropResponse());

      FaultScenario.Result run = table.run(table.environment());

      assertThat(run.code()).as(run.err()).isZero();
      JsonNode report = JSON.readTree(run.out());
      assertThat(report.get("version_after").asLong()).isEqualTo(33);
      assertThat(report.get("files_after").asInt()).isEqualTo(3);
      assertThat(report.get("compaction_partitions").findValuesAsText("status")).containsOnly("committed");
      assertConverged(table, table.environment());
    }
  }

  /** Every row exactly once, no orphan, and a second run finds nothing to do. */
  static void assertConverged(FaultScenario table, java.util.Map<String, String> env) throws Exception {
    assertThat(table.rowsAndDistinctIds()).containsExactly(FaultScenario.ROWS, FaultScenario.ROWS);
    assertThat(table.orphans()).isEmpty();
    FaultScenario.Result again = table.run(env);
    assertThat(again.code()).as(again.err()).isZero();
    JsonNode report = JSON.readTree(again.out());
    assertThat(report.get("files_removed").asInt()).isZero();
    assertThat(report.get("total_files").asInt()).isEqualTo(3);
    assertThat(table.rowsAndDistinctIds()).containsExactly(FaultScenario.ROWS, FaultScenario.ROWS);
  }
}
