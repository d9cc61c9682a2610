package company.data.compactor.cli;

import static org.assertj.core.api.Assertions.assertThat;

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
 * A table whose file carries a deletion vector is refused before anything is written. The log is
 * written by hand (protocol 3/7 with the deletionVectors feature, one add with an inline DV), as
 * Spark or Databricks would leave it after a DELETE.
 */
class DeletionVectorRefusalIT {

  @TempDir Path work;

  @Test
  void run_refusesFilesWithDeletionVectors_namingTheFile_andWritesNothing() throws Exception {
    Path table = Files.createDirectories(work.resolve("dv"));
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
      s.execute("COPY (SELECT range AS id FROM range(0, 3)) TO '" + table.resolve("a.parquet") + "' (FORMAT parquet)");
      s.execute("COPY (SELECT range AS id FROM range(3, 6)) TO '" + table.resolve("b.parquet") + "' (FORMAT parquet)");
    }
    long sizeA = Files.size(table.resolve("a.parquet"));
    long sizeB = Files.size(table.resolve("b.parquet"));
    String schema = "{\\\"type\\\":\\\"struct\\\",\\\"fields\\\":[{\\\"name\\\":\\\"id\\\",\\\"type\\\":\\\"long\\\",\\\"nullable\\\":true,\\\"metadata\\\":{}}]}";
    String log = String.join("\n",
        "{\"commitInfo\":{\"timestamp\":1,\"operation\":\"WRITE\"}}",
        "{\"protocol\":{\"minReaderVersion\":3,\"minWriterVersion\":7,\"readerFeatures\":[\"deletionVectors\"],\"writerFeatures\":[\"deletionVectors\"]}}",
        "{\"metaData\":{\"id\":\"6f0c8c1e-0000-4000-8000-000000000001\",\"format\":{\"provider\":\"parquet\",\"options\":{}},"
            + "\"schemaString\":\"" + schema + "\",\"partitionColumns\":[],"
            + "\"configuration\":{\"delta.enableDeletionVectors\":\"true\"},\"createdTime\":1}}",
        "{\"add\":{\"path\":\"a.parquet\",\"partitionValues\":{},\"size\":" + sizeA + ",\"modificationTime\":1,\"dataChange\":true,"
            + "\"stats\":\"{\\\"numRecords\\\":3}\","
            + "\"deletionVector\":{\"storageType\":\"i\",\"pathOrInlineDv\":\"wi5b=000010000siXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L\",\"sizeInBytes\":40,\"cardinality\":1}}}",
        "{\"add\":{\"path\":\"b.parquet\",\"partitionValues\":{},\"size\":" + sizeB + ",\"modificationTime\":2,\"dataChange\":true,"
            + "\"stats\":\"{\\\"numRecords\\\":3}\"}}",
        "");
    Files.createDirectories(table.resolve("_delta_log"));
    Files.writeString(table.resolve("_delta_log/00000000000000000000.json"), log);

    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.execute(
        new String[] {"run", "--work-dir", work.toString(), "--demo-mode", "false", "--table-uri", "dv", "--z-order-columns", ""},
        new PrintWriter(out, true), new PrintWriter(err, true));

    assertThat(code).as(err.toString()).isEqualTo(1);
    assertThat(err.toString())
        .contains("file a.parquet has a deletion vector (table feature deletionVectors)")
        .contains("nothing was written");
    try (var files = Files.list(table)) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("a.parquet", "b.parquet", "_delta_log");
    }
    try (var log0 = Files.list(table.resolve("_delta_log"))) {
      assertThat(log0).hasSize(1);
    }
  }
}
