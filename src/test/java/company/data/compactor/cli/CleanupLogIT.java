package company.data.compactor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.delta.kernel.KernelDeltaTables;
import company.data.compactor.delta.kernel.KernelTableWriter;
import company.data.compactor.demo.DemoSeeder;
import company.data.compactor.model.TableLocation;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.testing.CliRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/compactor cleanup-log} and the log step of {@code run} on a seeded demo table (31
 * commits, no checkpoint) whose log files are 40 days old: a dry run by default, then applied.
 */
class CleanupLogIT {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path work;
  private Path log;

  @BeforeEach
  void agedDemo() throws Exception {
    LocalStorage storage = new LocalStorage();
    new DemoSeeder(storage, new KernelDeltaTables(storage), new KernelTableWriter(storage))
        .seed(TableLocation.parse("demo", work));
    log = work.resolve("demo/_delta_log");
    FileTime old = FileTime.from(Instant.now().minus(Duration.ofDays(40)));
    for (Path file : listing()) {
      Files.setLastModifiedTime(log.resolve(file), old);
    }
  }

  private List<Path> listing() throws Exception {
    try (Stream<Path> files = Files.list(log)) {
      return files.map(Path::getFileName).sorted().toList();
    }
  }

  private CliRunner.Result cli(String... args) {
    return CliRunner.run(Map.of(), args);
  }

  @Test
  void cleanupLog_isADryRunByDefault_thenApplied_keepsTheNewCheckpointAndItsCommit()
      throws Exception {
    List<Path> before = listing();

    CliRunner.Result dry =
        cli("cleanup-log", "--work-dir", work.toString(), "--table-uri", "demo", "--json");

    assertThat(dry.code()).as(dry.err()).isZero();
    JsonNode logs = JSON.readTree(dry.out()).path("log_cleanup");
    assertThat(logs.path("dry_run").asBoolean()).isTrue();
    assertThat(logs.path("checkpoint_status").asText()).isEqualTo("would_write");
    assertThat(logs.path("checkpoint_version").asLong()).isEqualTo(30);
    assertThat(logs.path("commits_since_checkpoint").asLong()).isEqualTo(31);
    assertThat(logs.path("log_files_listed").asInt()).isEqualTo(31);
    assertThat(logs.path("expired_files_count").asInt()).isEqualTo(30);
    assertThat(logs.path("expired_sample")).hasSize(20);
    assertThat(logs.path("deleted_files_count").asInt()).isZero();
    assertThat(logs.path("log_retention_hours").asLong()).isEqualTo(720);
    assertThat(logs.path("log_retention_source").asText()).isEqualTo("default");
    assertThat(logs.path("oldest_version_after").asLong()).isEqualTo(30);
    assertThat(logs.path("skipped_reason").isNull()).isTrue();
    assertThat(JSON.readTree(dry.out()).path("command").asText()).isEqualTo("cleanup-log");
    assertThat(dry.err()).contains("Log cleanup (720 h, cutoff ").contains("30 of 31 log files");
    assertThat(listing()).isEqualTo(before);

    CliRunner.Result applied =
        cli(
            "cleanup-log",
            "--work-dir",
            work.toString(),
            "--table-uri",
            "demo",
            "--dry-run",
            "false",
            "--json");

    assertThat(applied.code()).as(applied.err()).isZero();
    JsonNode done = JSON.readTree(applied.out()).path("log_cleanup");
    assertThat(done.path("checkpoint_status").asText()).isEqualTo("written");
    assertThat(done.path("deleted_files_count").asInt()).isEqualTo(30);
    assertThat(JSON.readTree(applied.out()).path("inputs").path("vacuum_dry_run").asBoolean())
        .isFalse();
    assertThat(listing())
        .containsExactly(
            Path.of("00000000000000000030.checkpoint.parquet"),
            Path.of("00000000000000000030.json"),
            Path.of("_last_checkpoint"));
    CliRunner.Result inspect =
        cli("inspect", "--work-dir", work.toString(), "--table-uri", "demo", "--json");
    assertThat(JSON.readTree(inspect.out()).path("total_rows").asLong()).isEqualTo(1500);
  }

  @Test
  void run_cleansTheLogAfterVacuum_withVacuumsDryRunFlag() throws Exception {
    CliRunner.Result run =
        cli(
            "run",
            "--work-dir",
            work.toString(),
            "--table-uri",
            "demo",
            "--demo-mode",
            "false",
            "--vacuum-dry-run",
            "false",
            "--json");

    assertThat(run.code()).as(run.err()).isZero();
    JsonNode report = JSON.readTree(run.out());
    List<String> steps = report.path("steps").findValuesAsText("step");
    assertThat(steps.subList(steps.size() - 2, steps.size()))
        .containsExactly("vacuum", "cleanup-log");
    // Compaction committed 31..33 (fresh) and vacuum nothing; the checkpoint at 33 is due (34
    // commits, none checkpointed), and every commit before the fresh ones is 40 days old, but only
    // whole stretches before a checkpoint go: 0..32 do not end before the cutoff (31, 32 are new).
    JsonNode logs = report.path("log_cleanup");
    assertThat(logs.path("checkpoint_status").asText()).isEqualTo("written");
    assertThat(logs.path("checkpoint_version").asLong()).isEqualTo(33);
    assertThat(logs.path("deleted_files_count").asInt()).isZero();
    assertThat(listing()).contains(Path.of("00000000000000000000.json"));
  }

  @Test
  void help_namesTheCommand_andItsSafetyRule() {
    CliRunner.Result help = cli("--help");
    CliRunner.Result own = cli("cleanup-log", "--help");

    assertThat(help.out()).contains("cleanup-log");
    assertThat(own.code()).isZero();
    assertThat(own.out())
        .contains("delta.checkpointInterval (default 10)")
        .contains("never the newest checkpoint, _last_checkpoint")
        .contains("--dry-run");
  }
}
