package company.data.compactor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.delta.kernel.KernelDeltaTables;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.testing.DeletionVectorTables;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run} on a table whose file carries a deletion vector ({@link DeletionVectorTables}): the
 * file is rewritten without the rows its vector deletes, the output carries no vector, and the
 * commit's remove names the same file+vector pair (the logged descriptor). {@code plan} says how
 * many vectors it purges, {@code inspect} counts live and deleted rows.
 */
class DeletionVectorCompactionIT {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path work;

  private record Result(int code, String out, String err) {}

  private Result cli(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    return new Result(code, out.toString(), err.toString());
  }

  private static List<Long> ids(List<DataFile> files) throws Exception {
    String list =
        files.stream()
            .map(f -> "'" + f.path().replace("file:", "") + "'")
            .collect(Collectors.joining(", ", "[", "]"));
    List<Long> ids = new ArrayList<>();
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT id FROM read_parquet(" + list + ") ORDER BY id")) {
      while (rs.next()) {
        ids.add(rs.getLong(1));
      }
    }
    return ids;
  }

  @Test
  void run_rewritesTheFileWithoutItsDeletedRows_andRemovesItWithItsDeletionVector()
      throws Exception {
    runRewritesWithoutTheDeletedRows("");
  }

  /**
   * Z-ordered, the bin's 5 rows fit the rewrite's size probe, which is kept as the output file
   * (aa46bd5): the probe must leave the deleted row out too.
   */
  @Test
  void run_zOrdered_rewritesTheFileWithoutItsDeletedRows_andRemovesItWithItsDeletionVector()
      throws Exception {
    runRewritesWithoutTheDeletedRows("id");
  }

  private void runRewritesWithoutTheDeletedRows(String zOrderColumns) throws Exception {
    Path table = DeletionVectorTables.inlineDeletionVector(work.resolve("dv"));

    Result run =
        cli(
            "run",
            "--work-dir",
            work.toString(),
            "--demo-mode",
            "false",
            "--table-uri",
            "dv",
            "--z-order-columns",
            zOrderColumns,
            "--json");

    assertThat(run.code()).as(run.err()).isZero();
    JsonNode report = JSON.readTree(run.out());
    assertThat(report.get("compaction_plan").get("layout").asText())
        .isEqualTo(zOrderColumns.isEmpty() ? "bin_pack" : "z_order");
    assertThat(report.get("compaction_plan").get("deletion_vectors_to_purge").asInt()).isEqualTo(1);
    assertThat(report.get("compaction_plan").get("files_with_deletion_vectors").asInt())
        .as("none left out any more")
        .isZero();
    assertThat(report.get("files_removed").asInt()).isEqualTo(2);
    assertThat(report.get("files_added").asInt()).isEqualTo(1);
    TableSnapshot after =
        new KernelDeltaTables(new LocalStorage()).loadLatest(TableLocation.parse("dv", work));
    assertThat(after.version()).isEqualTo(1);
    assertThat(after.activeFiles()).hasSize(1);
    assertThat(after.activeFiles().get(0).hasDeletionVector()).isFalse();
    assertThat(after.activeFiles().get(0).numRecords()).hasValue(5);
    assertThat(ids(after.activeFiles())).containsExactly(0L, 2L, 3L, 4L, 5L);
    List<JsonNode> removes = new ArrayList<>();
    for (String line : Files.readAllLines(table.resolve("_delta_log/00000000000000000001.json"))) {
      JsonNode action = JSON.readTree(line);
      if (action.has("remove")) {
        removes.add(action.get("remove"));
      }
    }
    assertThat(removes)
        .extracting(r -> r.get("path").asText())
        .containsExactly("a.parquet", "b.parquet");
    assertThat(removes.get(0).get("deletionVector"))
        .as("the remove names the same file+vector pair")
        .isEqualTo(JSON.readTree(DeletionVectorTables.INLINE_DV));
    assertThat(
            removes.get(1).has("deletionVector") && !removes.get(1).get("deletionVector").isNull())
        .isFalse();
    assertThat(removes).allSatisfy(r -> assertThat(r.get("dataChange").asBoolean()).isFalse());
  }

  @Test
  void plan_binsTheFileWithADeletionVector_andSaysItIsPurged() throws Exception {
    DeletionVectorTables.inlineDeletionVector(work.resolve("dv"));

    Result plan =
        cli(
            "plan",
            "--work-dir",
            work.toString(),
            "--table-uri",
            "dv",
            "--z-order-columns",
            "",
            "--json");

    assertThat(plan.code()).as(plan.err()).isZero();
    JsonNode report = JSON.readTree(plan.out()).get("compaction_plan");
    assertThat(report.get("bins").asInt()).isEqualTo(1);
    assertThat(report.get("files_to_rewrite").asInt()).isEqualTo(2);
    assertThat(report.get("deletion_vectors_to_purge").asInt()).isEqualTo(1);
  }

  @Test
  void inspect_countsTheRowsReadersSee_andTheDeletedRows_perTableAndPartition() throws Exception {
    DeletionVectorTables.inlineDeletionVector(work.resolve("dv"));

    Result inspect = cli("inspect", "--work-dir", work.toString(), "--table-uri", "dv", "--json");

    assertThat(inspect.code()).as(inspect.err()).isZero();
    JsonNode report = JSON.readTree(inspect.out());
    assertThat(report.get("total_rows").asLong()).as("3 - 1 + 3").isEqualTo(5);
    assertThat(report.get("deleted_rows").asLong()).isEqualTo(1);
    assertThat(report.get("deleted_rows_ratio").asDouble()).as("1 of 6").isEqualTo(0.1667);
    JsonNode partition = report.get("partitions").get(0);
    assertThat(partition.get("deleted_rows").asLong()).isEqualTo(1);
    assertThat(partition.get("deleted_rows_ratio").asDouble()).isEqualTo(0.1667);
  }
}
