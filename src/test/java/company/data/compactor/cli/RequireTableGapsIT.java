package company.data.compactor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.testing.CliRunner;
import company.data.compactor.testing.DeletionVectorTables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
   * A _last_checkpoint that is there and cannot be read is a hint lost, not a failure: the log is
   * listed from its start, as kernel does. Before, vacuum failed with "reading the log's listing"
   * where inspect (kernel) read the table (helper-12): a directory, and bytes Jackson takes for
   * UTF-32 (an IOException, not a JSON error).
   */
  @Test
  void aLastCheckpointThatCannotBeRead_isListedPast_asKernelDoes() throws Exception {
    Path directory = DeletionVectorTables.inlineDeletionVector(work.resolve("directory"));
    Files.createDirectories(directory.resolve("_delta_log/_last_checkpoint"));
    Path utf32 = DeletionVectorTables.inlineDeletionVector(work.resolve("utf32"));
    Files.write(
        utf32.resolve("_delta_log/_last_checkpoint"),
        new byte[] {0, 0, 0, 0x7b, -1, -1, -1, -1, 0, 0, 0, 0x7d});

    for (Path table : List.of(directory, utf32)) {
      CliRunner.Result result =
          CliRunner.run(
              Map.of(), "vacuum", "--work-dir", work.toString(), "--table-uri", table.toString());

      assertThat(result.code()).as(result.err()).isZero();
      assertThat(result.err()).doesNotContain("error");
      assertThat(table.resolve("a.parquet")).as("a dry run: nothing deleted").exists();
    }
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
