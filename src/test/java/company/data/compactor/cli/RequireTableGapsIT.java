package company.data.compactor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.testing.CliRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gaps helper-7 found in requireTable (a2071d4, e4402be), where it still wrote at, or misnamed,
 * a location with no table; and a real table it must not refuse.
 */
class RequireTableGapsIT {

  @TempDir Path work;

  /**
   * A _delta_log holding a _last_checkpoint and neither a commit nor a checkpoint is no table
   * (kernel says so after the lease): nothing should be written there.
   */
  @Test
  void aLastCheckpointAlone_isNoTable_andNothingIsWrittenThere() throws Exception {
    Path remnant = work.resolve("remnant");
    Files.createDirectories(remnant.resolve("_delta_log"));
    Files.writeString(remnant.resolve("_delta_log/_last_checkpoint"), "{\"version\":3,\"size\":1}");

    CliRunner.Result result =
        CliRunner.run(
            Map.of(), "vacuum", "--work-dir", work.toString(), "--table-uri", remnant.toString());

    assertThat(result.code()).isEqualTo(1);
    assertThat(result.err()).startsWith("compactor: error: No Delta table at file:" + remnant);
    assertThat(remnant.resolve("_compactor")).doesNotExist();
  }

  /**
   * A _last_checkpoint that is there and cannot be read (here a directory; on S3 a HEAD or GET that
   * fails) is named as what failed: before, the error said "reading the log's listing".
   */
  @Test
  void aLastCheckpointThatCannotBeRead_isNamed_andNothingIsWritten() throws Exception {
    Path table = work.resolve("table");
    Files.createDirectories(table.resolve("_delta_log/_last_checkpoint"));
    Files.writeString(table.resolve("_delta_log/00000000000000000000.json"), "{}\n");

    CliRunner.Result result =
        CliRunner.run(
            Map.of(), "vacuum", "--work-dir", work.toString(), "--table-uri", table.toString());

    assertThat(result.code()).isEqualTo(1);
    assertThat(result.err())
        .contains("reading _delta_log/_last_checkpoint of file:" + table)
        .doesNotContain("listing");
    assertThat(table.resolve("_compactor")).doesNotExist();
  }

  /**
   * A table_uri naming a file, or a directory whose _delta_log is a file, holds no table: the
   * leased commands should say TABLE_NOT_FOUND as inspect does, not "Failed while listing the log
   * ... Not a directory" (before a2071d4, the _delta_log-is-a-file case said No Delta table).
   */
  @Test
  void aPathThatIsAFile_isNoTable_asInspectSays() throws Exception {
    Path file = work.resolve("events.parquet");
    Files.writeString(file, "not a table");
    Path logIsAFile = work.resolve("log-is-a-file");
    Files.createDirectories(logIsAFile);
    Files.writeString(logIsAFile.resolve("_delta_log"), "not a log");

    for (Path target : new Path[] {file, logIsAFile}) {
      CliRunner.Result inspect =
          CliRunner.run(
              Map.of(), "inspect", "--work-dir", work.toString(), "--table-uri", target.toString());
      CliRunner.Result vacuum =
          CliRunner.run(
              Map.of(), "vacuum", "--work-dir", work.toString(), "--table-uri", target.toString());

      assertThat(inspect.err())
          .as("inspect " + target)
          .startsWith("compactor: error: No Delta table at file:" + target);
      assertThat(vacuum.code()).isEqualTo(1);
      assertThat(vacuum.err())
          .as("vacuum " + target)
          .startsWith("compactor: error: No Delta table at file:" + target);
    }
  }

  /**
   * A malformed setting is invalid input (exit 2, "Nothing was read or written") before the table
   * is looked at: so it was before a2071d4, at any table_uri. Now a missing table answers first.
   */
  @Test
  void aMalformedSetting_atAMissingTable_isStillInvalidInput() {
    Path missing = work.resolve("missing");

    CliRunner.Result result =
        CliRunner.run(
            Map.of("COMPACTOR_PROBE_RUNS", "abc"),
            "run",
            "--demo-mode=false",
            "--work-dir",
            work.toString(),
            "--table-uri",
            missing.toString());

    assertThat(result.code()).as(result.err()).isEqualTo(2);
    assertThat(result.err())
        .startsWith(
            "compactor: error: Invalid request, 1 rule broken: COMPACTOR_PROBE_RUNS=abc: must be a"
                + " whole number >= 1.");
    assertThat(missing).doesNotExist();
  }

  /**
   * A _last_checkpoint naming a version the log does not reach (stale, or written by hand) is read
   * as where to start listing; finding nothing there, the whole log is listed and the table found.
   */
  @Test
  void aLastCheckpointPastTheLog_stillFindsTheTable() throws Exception {
    Path table = work.resolve("t");
    CliRunner.Result seeded =
        CliRunner.run(Map.of(), "run", "--work-dir", work.toString(), "--table-uri", "t");
    assertThat(seeded.code()).as(seeded.err()).isZero();
    Files.writeString(table.resolve("_delta_log/_last_checkpoint"), "{\"version\":99,\"size\":1}");

    CliRunner.Result vacuum =
        CliRunner.run(Map.of(), "vacuum", "--work-dir", work.toString(), "--table-uri", "t");

    assertThat(vacuum.code()).as(vacuum.err()).isZero();
  }
}
