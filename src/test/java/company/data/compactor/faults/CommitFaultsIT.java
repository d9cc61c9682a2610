package company.data.compactor.faults;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.aws.AwsClients;
import company.data.compactor.delta.CommitOutcome;
import company.data.compactor.delta.RewriteCommit;
import company.data.compactor.delta.kernel.KernelRewriteCommitter;
import company.data.compactor.storage.s3.S3Clients;
import company.data.compactor.storage.s3.S3Storage;
import company.data.compactor.testing.FaultProxy.Fault;
import company.data.compactor.testing.FaultScenario;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

/** Faults on the S3 requests that commit to the Delta log (issue 23, item 1). */
class CommitFaultsIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long ROWS = FaultScenario.ROWS;

  @TempDir Path work;

  @Test
  void lostResponseToACommitPut_isRecognisedAsOurCommit_andNoFileItReferencesIsDeleted()
      throws Exception {
    try (FaultScenario table = FaultScenario.fresh(work)) {
      table.s3().on("PUT", ".*/_delta_log/0{18}31\\.json.*", 1, 1, new Fault.DropResponse());

      FaultScenario.Result run = table.run(table.environment());

      assertThat(run.code()).as(run.err()).isZero();
      JsonNode report = JSON.readTree(run.out());
      assertThat(report.get("version_after").asLong()).isEqualTo(33);
      assertThat(report.get("files_after").asInt()).isEqualTo(3);
      assertThat(report.get("compaction_partitions").findValuesAsText("status"))
          .containsOnly("committed");
      assertConverged(table, table.environment());
    }
  }

  @Test
  void commitWhoseOutcomeCannotBeProven_saysItMayHaveLanded_howToCheck_andKeepsTheFiles()
      throws Exception {
    try (FaultScenario table = FaultScenario.fresh(work)) {
      table
          .s3()
          .on("PUT", ".*/_delta_log/0{18}31\\.json.*", 1, 1, new Fault.DropResponse())
          .on("GET", ".*/_delta_log/0{18}31\\.json.*", 1, 1000, Fault.s3(503, "SlowDown"));

      FaultScenario.Result run = table.run(table.environment());

      assertThat(run.code()).isEqualTo(1);
      String log = table.uri() + "/_delta_log/00000000000000000031.json";
      assertThat(run.err())
          .startsWith(
              "compactor: error: The OPTIMIZE commit of "
                  + table.uri()
                  + " (read version 30) failed (")
          .contains("and the log could not be read to tell whether it landed (")
          .contains(
              " To check: read " + log + " (and later versions); if a commitInfo there has txnId ")
          .contains(" the OPTIMIZE is committed, otherwise nothing of it is. Its 1 new file(s) [")
          .contains("were kept in case a write still lands");
      // It had landed: the files it references were kept, so the table reads whole.
      assertThat(table.snapshot().version()).isEqualTo(31);
      table.s3().clear();
      assertThat(table.rowsAndDistinctIds()).containsExactly(ROWS, ROWS);
      FaultScenario.Result again = table.run(table.environment());
      assertThat(again.code()).as(again.err()).isZero();
      assertThat(JSON.readTree(again.out()).get("version_after").asLong()).isEqualTo(33);
      assertConverged(table, table.environment());
    }
  }

  @Test
  void lostResponseToAVacuumStartCommit_isCommittedOnce() throws Exception {
    try (FaultScenario table = FaultScenario.fresh(work);
        S3Client client = S3Clients.fromEnvironment(table.environment());
        S3Client conditional = S3Clients.forConditionalWrites(table.environment())) {
      table.s3().on("PUT", ".*/_delta_log/0{18}31\\.json.*", 1, 1, new Fault.DropResponse());
      S3Storage storage = new S3Storage(client, conditional, work.resolve("uploads"));

      CommitOutcome outcome =
          new KernelRewriteCommitter(
                  storage, Clock.systemUTC(), AwsClients.retryPolicy(table.environment()))
              .commitRewrite(
                  new RewriteCommit(
                      table.location(),
                      30,
                      List.of(),
                      List.of(),
                      "VACUUM START",
                      Map.of(),
                      Map.of()));

      assertThat(outcome).isEqualTo(new CommitOutcome.Committed(31, List.of()));
      assertThat(table.snapshot().version()).isEqualTo(31);
      assertThat(table.rowsAndDistinctIds()).containsExactly(ROWS, ROWS);
    }
  }

  /** Every row exactly once, no orphan, and a second run finds nothing to do. */
  static void assertConverged(FaultScenario table, java.util.Map<String, String> env)
      throws Exception {
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
