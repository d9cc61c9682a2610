package company.data.compactor.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.delta.kernel.KernelDeltaTables;
import company.data.compactor.delta.kernel.KernelTableWriter;
import company.data.compactor.demo.DemoSeeder;
import company.data.compactor.lease.Lease;
import company.data.compactor.lease.Leases;
import company.data.compactor.lease.TableLeaseStore;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.testing.CliRunner;
import company.data.compactor.testing.DuckDb;
import company.data.compactor.testing.ScratchHolder;
import company.data.compactor.wiring.Wiring;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a run killed with {@code kill -9} leaves behind, and that the next run removes it: the real
 * {@code bin/compactor} in its own JVM, killed while its scratch directory exists; and a live
 * process's scratch that a concurrent run must not touch.
 */
class KilledRunIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> DATA_COLUMNS =
      List.of("event_id", "customer_id", "event_type", "amount");
  private static final Duration TIMEOUT = Duration.ofMinutes(2);

  @TempDir Path work;
  private Process child;

  @AfterEach
  void killChild() throws Exception {
    if (child != null && child.isAlive()) {
      child.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
  }

  private Path scratchRoot() {
    return work.resolve(Wiring.SCRATCH_RELATIVE_PATH);
  }

  private TableLocation seedDemo(String name) {
    TableLocation table = TableLocation.parse(name, work);
    LocalStorage storage = new LocalStorage();
    new DemoSeeder(storage, new KernelDeltaTables(storage), new KernelTableWriter(storage))
        .seed(table);
    return table;
  }

  private static TableSnapshot snapshot(TableLocation table) {
    return new KernelDeltaTables(new LocalStorage()).loadLatest(table);
  }

  /** A file of ours or not, last modified {@code age} ago. */
  private static Path plant(Path file, String content, Duration age) throws Exception {
    Files.writeString(file, content);
    Files.setLastModifiedTime(file, FileTime.from(Instant.now().minus(age)));
    return file;
  }

  private static void age(Path dir, Duration age) throws Exception {
    Files.setLastModifiedTime(dir, FileTime.from(Instant.now().minus(age)));
  }

  private List<Path> scratchDirs() throws Exception {
    if (!Files.isDirectory(scratchRoot())) {
      return List.of();
    }
    try (Stream<Path> entries = Files.list(scratchRoot())) {
      return entries.toList();
    }
  }

  /** Each directory's entries, at any depth, with their modification times. */
  private static String described(List<Path> dirs) throws Exception {
    StringBuilder text = new StringBuilder();
    for (Path dir : dirs) {
      try (Stream<Path> entries = Files.walk(dir)) {
        entries.forEach(
            p -> {
              try {
                text.append(dir.relativize(p)).append('@').append(Files.getLastModifiedTime(p));
              } catch (java.io.IOException e) {
                text.append(p).append(" (").append(e).append(')');
              }
              text.append(' ');
            });
      }
    }
    return text.toString();
  }

  /** Polls until {@code process} has a scratch directory, which it then returns. */
  private Path awaitScratch(Process process) throws Exception {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      Optional<Path> dir =
          scratchDirs().stream()
              .filter(d -> d.getFileName().toString().startsWith("run-"))
              .findFirst();
      if (dir.isPresent()) {
        return dir.get();
      }
      assertThat(process.isAlive())
          .as("the run ended (exit %s) before its scratch directory was seen", exitOf(process))
          .isTrue();
      Thread.sleep(2);
    }
    throw new AssertionError("no scratch directory within " + TIMEOUT);
  }

  private static String exitOf(Process process) {
    return process.isAlive() ? "none" : String.valueOf(process.exitValue());
  }

  /** {@code kill -9}: the process and anything it started, with no chance to clean up. */
  private static void kill(Process process) throws Exception {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("killed").isTrue();
    assertThat(process.exitValue()).as("SIGKILL").isEqualTo(128 + 9);
  }

  /**
   * Lets the killed run's lease expire as its TTL would, through the store's own rules: a taker at
   * a time past the expiry gets it, then releases it.
   */
  private void expireLease(TableLocation table) {
    TableLeaseStore store = new TableLeaseStore(location -> new LocalStorage());
    Instant later = Instant.now().plus(Leases.DEFAULT_TTL).plusSeconds(1);
    Lease taken =
        store
            .tryAcquire(table, "test-after-ttl", later, Leases.DEFAULT_TTL)
            .acquired()
            .orElseThrow(() -> new AssertionError("the killed run's lease did not expire"));
    store.release(taken);
  }

  private CliRunner.Result cli(String... args) {
    String[] all =
        Stream.concat(Stream.of(args), Stream.of("--work-dir", work.toString(), "--json"))
            .toArray(String[]::new);
    return CliRunner.run(Map.of(), all);
  }

  @Test
  void aRunKilledMidCompaction_leavesNothingBehind_afterTheNextRun() throws Exception {
    TableLocation table = seedDemo("demo_delta_table");
    String checksum = DuckDb.checksum(snapshot(table).activeFiles(), DATA_COLUMNS);
    ProcessBuilder builder =
        new ProcessBuilder(
                "bin/compactor", "run", "--work-dir", work.toString(), "--demo-mode", "false")
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(work.resolve("killed-run.log").toFile());
    builder.environment().put("COMPACTOR_CDS", "off");
    child = builder.start();
    Path killedScratch = awaitScratch(child);
    kill(child);

    assertThat(killedScratch).as("left behind by the killed run").isDirectory();
    CliRunner.Result blocked = cli("run", "--demo-mode", "false");
    assertThat(blocked.code()).as("the killed run's lease holds until its TTL").isEqualTo(1);
    assertThat(blocked.err()).contains("holds the table's lease until");
    expireLease(table);
    // The killed run's scratch as it looks once the lease TTL has passed.
    age(killedScratch, Leases.DEFAULT_TTL.plusMinutes(1));
    Path root = LocalStorage.toPath(table.uri());
    Path partition = root.resolve("event_date=2026-10-17");
    // What a run killed inside a write a week ago left beside its destination (169 h old)...
    Path oldTemp =
        plant(
            partition.resolve(".compactor-tmp-0f8fad5b-d9cb-469f-a165-70867728950e-part-1.parquet"),
            "12345",
            Duration.ofHours(169));
    Path oldLogTemp =
        plant(
            root.resolve(
                "_delta_log/.compactor-tmp-7c9e6679-7425-40de-944b-e07fc1f90ae7-00000000000000000031.json"),
            "123",
            Duration.ofHours(169));
    // ...one killed 167 h ago, and a hidden file that is not ours.
    Path youngTemp =
        plant(
            partition.resolve(".compactor-tmp-3f2504e0-4f89-11d3-9a0c-0305e82c3301-part-2.parquet"),
            "x",
            Duration.ofHours(167));
    Path notOurs = plant(partition.resolve(".someone-elses-tmp"), "x", Duration.ofDays(400));

    CliRunner.Result next = cli("run", "--demo-mode", "false");

    assertThat(next.code()).as(next.err()).isZero();
    JsonNode report = JSON.readTree(next.out());
    // Should this ever fail, the message says whose directory is left, what the sweep saw and what
    // the directory holds, so that one failure is enough to tell why.
    List<Path> left = scratchDirs();
    assertThat(left)
        .as(
            "scratch after the next run (the killed run's was %s; the sweep: %s; left: %s)",
            killedScratch.getFileName(), report.get("sweep"), described(left))
        .isEmpty();
    assertThat(oldTemp).as("our temporary file, older than 168 h").doesNotExist();
    assertThat(oldLogTemp).as("our temporary log file, older than 168 h").doesNotExist();
    assertThat(youngTemp).as("our temporary file, younger than 168 h").exists();
    assertThat(notOurs).as("not ours").exists();
    JsonNode sweep = report.get("sweep");
    assertThat(sweep).as("the report's sweep").isNotNull();
    assertThat(sweep.get("status").asText()).isEqualTo("done");
    assertThat(sweep.get("scratch_dirs_swept").asInt()).isEqualTo(1);
    assertThat(sweep.get("scratch_bytes_swept").asLong()).isNotNegative();
    assertThat(sweep.get("scratch_dirs_in_use").asInt()).isZero();
    assertThat(sweep.get("temporary_objects_swept").asInt()).isEqualTo(2);
    assertThat(sweep.get("temporary_object_bytes_swept").asLong()).isEqualTo(8);
    // The killed run may have died inside a write of its own: that leftover is minutes old.
    assertThat(sweep.get("temporary_objects_kept_young").asInt()).isGreaterThanOrEqualTo(1);
    assertThat(sweep.get("error").isNull()).isTrue();

    TableSnapshot after = snapshot(table);
    assertThat(DuckDb.checksum(after.activeFiles(), DATA_COLUMNS))
        .as("every row exactly once")
        .isEqualTo(checksum)
        .startsWith("1500:");
    assertThat(after.activeFiles()).as("converged: one file per partition").hasSize(3);
    CliRunner.Result plan = cli("plan", "--table-uri", "demo_delta_table");
    assertThat(plan.code()).as(plan.err()).isZero();
    assertThat(JSON.readTree(plan.out()).get("compaction_plan").get("bins").asInt()).isZero();
  }

  @Test
  void aLiveProcessesScratch_isNeverSweptByAConcurrentRun_andIsSweptOnceThatProcessIsKilled()
      throws Exception {
    seedDemo("other_table");
    ProcessBuilder builder =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                ScratchHolder.class.getName(),
                scratchRoot().toString())
            .redirectError(ProcessBuilder.Redirect.INHERIT);
    child = builder.start();
    Path held;
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      held = Path.of(out.readLine());
      age(held, Duration.ofDays(30));

      CliRunner.Result concurrent = cli("vacuum", "--table-uri", "other_table");

      assertThat(concurrent.code()).as(concurrent.err()).isZero();
      assertThat(held).as("a live process's scratch, however old").isDirectory();
      JsonNode sweep = JSON.readTree(concurrent.out()).get("sweep");
      assertThat(sweep).as("the report's sweep").isNotNull();
      assertThat(sweep.get("scratch_dirs_in_use").asInt()).isEqualTo(1);
      assertThat(sweep.get("scratch_dirs_swept").asInt()).isZero();

      kill(child);
    }

    CliRunner.Result after = cli("vacuum", "--table-uri", "other_table");

    assertThat(after.code()).as(after.err()).isZero();
    assertThat(held).as("the killed process's scratch").doesNotExist();
    JsonNode sweep = JSON.readTree(after.out()).get("sweep");
    assertThat(sweep.get("scratch_dirs_swept").asInt()).isEqualTo(1);
    assertThat(sweep.get("scratch_dirs_in_use").asInt()).isZero();
  }
}
