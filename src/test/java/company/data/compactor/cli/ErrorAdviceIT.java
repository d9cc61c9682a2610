package company.data.compactor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.testing.CliRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Error messages advise what the failing command can do, and say what was read. */
class ErrorAdviceIT {

  @TempDir Path work;

  @Test
  void inspect_onAMissingTable_doesNotAdviseAnOptionInspectLacks() {
    CliRunner.Result result =
        CliRunner.run(Map.of(), "inspect", "--work-dir", work.toString(), "--table-uri", "missing");

    assertThat(result.code()).isEqualTo(1);
    assertThat(result.err())
        .isEqualTo(
            "compactor: error: No Delta table at file:"
                + work.resolve("missing")
                + " (no _delta_log with a readable commit). Check table_uri. inspect reads an"
                + " existing table only; 'compactor run --demo-mode=true --table-uri URI' creates"
                + " the demo table there.\n")
        .doesNotContain("demo_mode=true");
  }

  @Test
  void run_onAMissingTable_advisesItsOwnDemoModeFlag() {
    CliRunner.Result result =
        CliRunner.run(
            Map.of(),
            "run",
            "--work-dir",
            work.toString(),
            "--table-uri",
            "missing",
            "--demo-mode=false");

    assertThat(result.code()).isEqualTo(1);
    assertThat(result.err())
        .endsWith(
            "(no _delta_log with a readable commit). Check table_uri. Or pass --demo-mode=true to"
                + " create the demo table there.\n");
  }

  /**
   * A command that changes an existing table, pointed at a path with no table, writes nothing
   * there: the lease's record used to be the one file at a mistyped path ({@code
   * <path>/_compactor/leases/lease-00000000000000000002.json}), found by helper-6 on 2026-12-07.
   */
  @Test
  void aLeasedCommand_onAMissingTable_failsBeforeItsLease_andCreatesNothingThere()
      throws Exception {
    List<List<String>> commands =
        List.of(
            List.of("run", "--demo-mode=false"),
            List.of("vacuum"),
            List.of("vacuum", "--vacuum-dry-run=false"),
            List.of("cleanup-log"));
    for (List<String> command : commands) {
      Path missing = work.resolve("missing-" + String.join("-", command).replace("=", "-"));
      List<String> args = new java.util.ArrayList<>(command);
      args.addAll(List.of("--work-dir", work.toString(), "--table-uri", missing.toString()));

      CliRunner.Result result = CliRunner.run(Map.of(), args.toArray(String[]::new));

      assertThat(result.code()).as(String.join(" ", command)).isEqualTo(1);
      assertThat(result.err())
          .as(String.join(" ", command))
          .startsWith(
              "compactor: error: No Delta table at file:"
                  + missing
                  + " (no _delta_log with a readable commit). Check table_uri.");
      assertThat(missing).as(String.join(" ", command) + ": nothing written there").doesNotExist();
    }
    // A log with no commit and no checkpoint (a checksum alone) is no table either.
    Path noCommit = work.resolve("no-commit");
    Files.createDirectories(noCommit.resolve("_delta_log"));
    Files.writeString(noCommit.resolve("_delta_log/00000000000000000000.crc"), "{}");
    CliRunner.Result result =
        CliRunner.run(
            Map.of(), "vacuum", "--work-dir", work.toString(), "--table-uri", noCommit.toString());
    assertThat(result.code()).isEqualTo(1);
    assertThat(result.err()).startsWith("compactor: error: No Delta table at file:" + noCommit);
    assertThat(noCommit.resolve("_compactor")).doesNotExist();
  }

  @Test
  void zOrderValidation_saysTheTableWasRead_notThatNothingWas() {
    CliRunner.Result result =
        CliRunner.run(
            Map.of(), "run", "--work-dir", work.toString(), "--z-order-columns", "colour");

    assertThat(result.code()).isEqualTo(2);
    assertThat(result.err())
        .contains("Invalid request, 1 rule broken against the table: z_order_columns=[colour]")
        .contains("colour is not a column of the table")
        .endsWith(
            ". The table's log was read to check them; nothing was written. Fix the values and"
                + " run again.\n")
        .doesNotContain("Nothing was read");
  }

  @Test
  void aCorruptCheckpoint_isNamed_withWhatIsWrong_andTheFix() throws Exception {
    assertThat(CliRunner.run(Map.of(), "run", "--work-dir", work.toString()).code()).isZero();
    CliRunner.Result cleanup =
        CliRunner.run(
            Map.of(),
            "cleanup-log",
            "--work-dir",
            work.toString(),
            "--table-uri",
            "demo_delta_table",
            "--vacuum-dry-run",
            "false");
    assertThat(cleanup.code()).as(cleanup.err()).isZero();
    Path checkpoint =
        work.resolve("demo_delta_table/_delta_log/00000000000000000033.checkpoint.parquet");
    assertThat(checkpoint).exists();
    java.nio.file.Files.writeString(checkpoint, "garbage, not parquet");

    CliRunner.Result result =
        CliRunner.run(
            Map.of(), "inspect", "--work-dir", work.toString(), "--table-uri", "demo_delta_table");

    assertThat(result.code()).isEqualTo(1);
    assertThat(result.err())
        .isEqualTo(
            "compactor: error: Checkpoint file:"
                + checkpoint
                + " is not a Parquet file. Expected magic number at tail, but found [113, 117,"
                + " 101, 116]: corrupt or truncated, so the table file:"
                + work.resolve("demo_delta_table")
                + " cannot be read through it; nothing was written. Fix: restore the file, or, if"
                + " the JSON commits it summarises are still in _delta_log, delete it and"
                + " _delta_log/_last_checkpoint so readers replay the commits.\n")
        .doesNotContain("ParquetIOUtils");
  }
}
