package company.data.compactor.faults;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.delta.kernel.KernelTableWriter;
import company.data.compactor.demo.DemoTable;
import company.data.compactor.testing.FaultProxy.Fault;
import company.data.compactor.testing.FaultScenario;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults on the checkpoint a compaction's commit triggers (kernel writes one every 10 versions):
 * the commit has landed, so a checkpoint whose response is lost or whose every PUT fails never
 * fails the run, and the table reads whole (issue 23).
 */
class CheckpointFaultsIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CHECKPOINT_40 = ".*/_delta_log/0{18}40\\.checkpoint\\.parquet.*";
  private static final long ROWS = FaultScenario.ROWS + 7L * DemoTable.ROWS_PER_APPEND;

  @TempDir Path work;

  /** Seven more appends: the table is at version 37, so the third partition's commit is 40. */
  private static FaultScenario atVersion37(Path work) {
    FaultScenario table = FaultScenario.fresh(work);
    KernelTableWriter writer = new KernelTableWriter(table.storage());
    for (int i = DemoTable.APPENDS; i < DemoTable.APPENDS + 7; i++) {
      writer.append(table.location(), DemoTable.partitionOf(i), DemoTable.rowsOf(i));
    }
    assertThat(table.snapshot().version()).isEqualTo(37);
    return table;
  }

  @Test
  void lostResponseToTheCheckpointPut_theRunSucceeds_andTheCheckpointIsThere() throws Exception {
    try (FaultScenario table = atVersion37(work)) {
      table.s3().on("PUT", CHECKPOINT_40, 1, 1, new Fault.DropResponse());

      FaultScenario.Result run = table.run(table.environment());

      assertThat(run.code()).as(run.err()).isZero();
      JsonNode report = JSON.readTree(run.out());
      assertThat(report.get("version_after").asLong()).isEqualTo(40);
      assertThat(report.get("compaction_partitions").findValuesAsText("status"))
          .containsOnly("committed");
      assertThat(report.get("compaction_partitions").findValues("hook_failures"))
          .allSatisfy(failures -> assertThat(failures).isEmpty());
      table.s3().clear();
      assertThat(
              table
                  .storage()
                  .stat(table.uri() + "/_delta_log/00000000000000000040.checkpoint.parquet")
                  .sizeBytes())
          .isPositive();
      assertThat(table.rowsAndDistinctIds()).containsExactly(ROWS, ROWS);
    }
  }

  @Test
  void everyCheckpointPutFailing_theCommitStands_theFailureIsReported_andTheTableReads()
      throws Exception {
    try (FaultScenario table = atVersion37(work)) {
      table.s3().on("PUT", CHECKPOINT_40, 1, 1000, Fault.s3(503, "SlowDown"));

      FaultScenario.Result run = table.run(table.environment());

      assertThat(run.code()).as(run.err()).isZero();
      JsonNode report = JSON.readTree(run.out());
      assertThat(report.get("version_after").asLong()).isEqualTo(40);
      assertThat(report.get("compaction_partitions").findValuesAsText("status"))
          .containsOnly("committed");
      List<String> failures = new java.util.ArrayList<>();
      report
          .get("compaction_partitions")
          .findValues("hook_failures")
          .forEach(list -> list.forEach(f -> failures.add(f.asText())));
      assertThat(failures).singleElement().asString().startsWith("CHECKPOINT: ");
      table.s3().clear();
      assertThat(table.snapshot().version()).isEqualTo(40);
      assertThat(table.rowsAndDistinctIds()).containsExactly(ROWS, ROWS);
      FaultScenario.Result again = table.run(table.environment());
      assertThat(again.code()).as(again.err()).isZero();
      assertThat(table.rowsAndDistinctIds()).containsExactly(ROWS, ROWS);
    }
  }
}
