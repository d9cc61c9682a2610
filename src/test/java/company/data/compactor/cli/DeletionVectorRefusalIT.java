package company.data.compactor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table whose file carries a deletion vector: the compactor cannot rewrite such files yet, so
 * {@code plan} leaves them out of bins and says so ({@code files_with_deletion_vectors}), {@code
 * run} writes nothing for them, and {@code inspect} counts the rows readers see (stats' {@code
 * numRecords} less the vector's cardinality). The log is written by hand (protocol 3/7 with the
 * deletionVectors feature, one add with an inline DV deleting 1 of 3 rows), as Spark or Databricks
 * would leave it after a DELETE.
 */
class DeletionVectorRefusalIT {

  @TempDir Path work;

  private record Result(int code, String out, String err) {}

  private Result cli(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    return new Result(code, out.toString(), err.toString());
  }

  private Path tableWithADeletionVector() throws Exception {
    Path table = Files.createDirectories(work.resolve("dv"));
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement()) {
      s.execute(
          "COPY (SELECT range AS id FROM range(0, 3)) TO '"
              + table.resolve("a.parquet")
              + "' (FORMAT parquet)");
      s.execute(
          "COPY (SELECT range AS id FROM range(3, 6)) TO '"
              + table.resolve("b.parquet")
              + "' (FORMAT parquet)");
    }
    long sizeA = Files.size(table.resolve("a.parquet"));
    long sizeB = Files.size(table.resolve("b.parquet"));
    String schema =
        "{\\\"type\\\":\\\"struct\\\",\\\"fields\\\":[{\\\"name\\\":\\\"id\\\",\\\"type\\\":\\\"long\\\",\\\"nullable\\\":true,\\\"metadata\\\":{}}]}";
    String log =
        String.join(
            "\n",
            "{\"commitInfo\":{\"timestamp\":1,\"operation\":\"WRITE\"}}",
            "{\"protocol\":{\"minReaderVersion\":3,\"minWriterVersion\":7,\"readerFeatures\":[\"deletionVectors\"],\"writerFeatures\":[\"deletionVectors\"]}}",
            "{\"metaData\":{\"id\":\"6f0c8c1e-0000-4000-8000-000000000001\",\"format\":{\"provider\":\"parquet\",\"options\":{}},"
                + "\"schemaString\":\""
                + schema
                + "\",\"partitionColumns\":[],"
                + "\"configuration\":{\"delta.enableDeletionVectors\":\"true\"},\"createdTime\":1}}",
            "{\"add\":{\"path\":\"a.parquet\",\"partitionValues\":{},\"size\":"
                + sizeA
                + ",\"modificationTime\":1,\"dataChange\":true,"
                + "\"stats\":\"{\\\"numRecords\\\":3}\","
                + "\"deletionVector\":{\"storageType\":\"i\",\"pathOrInlineDv\":\"wi5b=000010000siXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L\",\"sizeInBytes\":40,\"cardinality\":1}}}",
            "{\"add\":{\"path\":\"b.parquet\",\"partitionValues\":{},\"size\":"
                + sizeB
                + ",\"modificationTime\":2,\"dataChange\":true,"
                + "\"stats\":\"{\\\"numRecords\\\":3}\"}}",
            "");
    Files.createDirectories(table.resolve("_delta_log"));
    Files.writeString(table.resolve("_delta_log/00000000000000000000.json"), log);
    return table;
  }

  @Test
  void run_leavesFilesWithDeletionVectorsOutOfBins_andWritesNothingForThem() throws Exception {
    Path table = tableWithADeletionVector();

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
            "",
            "--json");

    assertThat(run.code()).as(run.err()).isZero();
    JsonNode plan = new ObjectMapper().readTree(run.out()).get("compaction_plan");
    assertThat(plan.get("bins").asInt()).isZero();
    assertThat(plan.get("files_with_deletion_vectors").asInt()).isEqualTo(1);
    try (var files = Files.list(table)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .as("no data file written; _compactor holds the run's released lease record")
          .containsExactlyInAnyOrder("a.parquet", "b.parquet", "_delta_log", "_compactor");
    }
    try (var log0 = Files.list(table.resolve("_delta_log"))) {
      assertThat(log0).hasSize(1);
    }
  }

  @Test
  void plan_neverPlansWhatRunWouldRefuse_andSaysWhy() throws Exception {
    tableWithADeletionVector();

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
    JsonNode report = new ObjectMapper().readTree(plan.out()).get("compaction_plan");
    assertThat(report.get("bins").asInt()).as("b.parquet alone is not worth a bin").isZero();
    assertThat(report.get("files_to_rewrite").asInt()).isZero();
    assertThat(report.get("files_with_deletion_vectors").asInt()).isEqualTo(1);
  }

  @Test
  void inspect_countsTheRowsReadersSee_lessEachDeletionVectorsCardinality() throws Exception {
    tableWithADeletionVector();

    Result inspect = cli("inspect", "--work-dir", work.toString(), "--table-uri", "dv", "--json");

    assertThat(inspect.code()).as(inspect.err()).isZero();
    assertThat(new ObjectMapper().readTree(inspect.out()).get("total_rows").asLong())
        .as("3 - 1 + 3")
        .isEqualTo(5);
  }
}
