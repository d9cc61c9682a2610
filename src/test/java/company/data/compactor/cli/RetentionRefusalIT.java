package company.data.compactor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code delta.deletedFileRetentionDuration} that is not a Delta interval makes vacuum refuse
 * (exit 1, property and value named) before anything is deleted or committed: fail closed, never
 * the 168-hour floor. The table is written by hand, everything in it 30 days old.
 */
class RetentionRefusalIT {

  @TempDir Path work;

  private Path table;
  private Path live;
  private Path orphan;

  private record Result(int code, String out, String err) {}

  private Result cli(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    return new Result(code, out.toString(), err.toString());
  }

  @BeforeEach
  void tableWithAMonthRetention() throws Exception {
    long old = Instant.now().minus(Duration.ofDays(30)).toEpochMilli();
    table = Files.createDirectories(work.resolve("t/_delta_log")).getParent();
    live = Files.writeString(table.resolve("live.parquet"), "x");
    Files.writeString(table.resolve("live2.parquet"), "y");
    orphan = Files.writeString(table.resolve("orphan.parquet"), "from a crashed writer");
    String schema =
        "{\\\"type\\\":\\\"struct\\\",\\\"fields\\\":[{\\\"name\\\":\\\"id\\\",\\\"type\\\":\\\"long\\\",\\\"nullable\\\":true,\\\"metadata\\\":{}}]}";
    Path commit =
        Files.writeString(
            table.resolve("_delta_log/00000000000000000000.json"),
            String.join(
                "\n",
                "{\"commitInfo\":{\"timestamp\":" + old + ",\"operation\":\"WRITE\"}}",
                "{\"protocol\":{\"minReaderVersion\":1,\"minWriterVersion\":2}}",
                "{\"metaData\":{\"id\":\"6f0c8c1e-0000-4000-8000-000000000003\",\"format\":{\"provider\":\"parquet\",\"options\":{}},"
                    + "\"schemaString\":\""
                    + schema
                    + "\",\"partitionColumns\":[],"
                    + "\"configuration\":{\"delta.deletedFileRetentionDuration\":\"interval 1 month\"},\"createdTime\":1}}",
                "{\"add\":{\"path\":\"live.parquet\",\"partitionValues\":{},\"size\":1,\"modificationTime\":"
                    + old
                    + ",\"dataChange\":true}}",
                "{\"add\":{\"path\":\"live2.parquet\",\"partitionValues\":{},\"size\":1,\"modificationTime\":"
                    + old
                    + ",\"dataChange\":true}}",
                ""));
    for (Path file : new Path[] {live, orphan, commit}) {
      Files.setLastModifiedTime(file, FileTime.fromMillis(old));
    }
  }

  private void nothingTouched() throws Exception {
    assertThat(orphan).exists();
    assertThat(live).exists();
    try (var log = Files.list(table.resolve("_delta_log"))) {
      assertThat(log.map(p -> p.getFileName().toString()))
          .containsExactly("00000000000000000000.json");
    }
  }

  @Test
  void vacuum_refusesATableWhoseRetentionDoesNotParse_andDeletesNothing() throws Exception {
    Result vacuum =
        cli(
            "vacuum",
            "--work-dir",
            work.toString(),
            "--table-uri",
            "t",
            "--vacuum-mode",
            "full",
            "--vacuum-dry-run",
            "false");

    assertThat(vacuum.code()).as(vacuum.err()).isEqualTo(1);
    assertThat(vacuum.err())
        .contains(
            "compactor: error: Refused to vacuum: the table property"
                + " delta.deletedFileRetentionDuration = 'interval 1 month' is not a Delta interval (month is not supported)."
                + " Nothing was deleted.");
    nothingTouched();
  }

  @Test
  void run_refusesBeforeCompactingAnything() throws Exception {
    Result run =
        cli(
            "run",
            "--work-dir",
            work.toString(),
            "--demo-mode",
            "false",
            "--table-uri",
            "t",
            "--z-order-columns",
            "",
            "--vacuum-mode",
            "full",
            "--vacuum-dry-run",
            "false");

    assertThat(run.code()).as(run.err()).isEqualTo(1);
    assertThat(run.err())
        .contains(
            "compactor: error: Refused to vacuum: the table property"
                + " delta.deletedFileRetentionDuration = 'interval 1 month' is not a Delta interval");
    nothingTouched();
  }
}
