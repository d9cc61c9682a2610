package company.data.compactor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.testing.DeletionVectorTables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/compactor}'s start-up cache, recorded by the first run of each table command after a
 * build: a class-data-sharing archive on Java 17-24, an AOT cache on Java 25+. Run from an install
 * of its own (the launcher copied, the build's jars linked), so the project's {@code target/cds} is
 * not touched. The cache is the JVM's; what is ours is when it is recorded, which one a run maps,
 * and that recording never reaches the command's stdout.
 */
class LauncherStartupCacheIT {

  private static final Path BUILD = Path.of("target").toAbsolutePath();
  private static final ObjectMapper JSON =
      new ObjectMapper()
          .enable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  @TempDir Path work;
  private Path install;

  @BeforeEach
  void install() throws IOException {
    install = work.resolve("install");
    Files.createDirectories(install.resolve("bin"));
    Files.copy(Path.of("bin/compactor"), install.resolve("bin/compactor"));
    install.resolve("bin/compactor").toFile().setExecutable(true);
    Files.createDirectories(install.resolve("target"));
    try (Stream<Path> jars = Files.list(BUILD)) {
      for (Path jar :
          jars.filter(p -> p.getFileName().toString().matches("delta-compactor-.*\\.jar"))
              .toList()) {
        Files.createSymbolicLink(install.resolve("target").resolve(jar.getFileName()), jar);
      }
    }
    Files.createSymbolicLink(install.resolve("target/cli-lib"), BUILD.resolve("cli-lib"));
  }

  private record Run(int exit, String out, String err) {}

  private Run compactor(Map<String, String> env, String... args) throws Exception {
    return compactorAt(install, env, args);
  }

  /** The launcher under {@code root} (the install, or a path to it through a link). */
  private Run compactorAt(Path root, Map<String, String> env, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(root.resolve("bin/compactor").toString()));
    command.addAll(List.of(args));
    Path err = Files.createTempFile(work, "err", ".log");
    ProcessBuilder builder = new ProcessBuilder(command).redirectError(err.toFile());
    builder.environment().remove("COMPACTOR_CDS");
    builder.environment().remove("COMPACTOR_JAVA_OPTS");
    builder.environment().putAll(env);
    Process process = builder.start();
    String out = new String(process.getInputStream().readAllBytes());
    assertThat(process.waitFor(3, TimeUnit.MINUTES)).isTrue();
    return new Run(process.exitValue(), out, Files.readString(err));
  }

  /** The cache files of the install, by name (command, compiler, kind) to modification time. */
  private Map<String, FileTime> caches() throws IOException {
    Path dir = install.resolve("target/cds");
    Map<String, FileTime> found = new HashMap<>();
    if (!Files.isDirectory(dir)) {
      return found;
    }
    Pattern name = Pattern.compile("compactor-\\d+-\\d+-(\\w+-c[12]\\.(jsa|aot))");
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.toList()) {
        Matcher m = name.matcher(file.getFileName().toString());
        assertThat(m.matches()).as("unexpected file %s in target/cds", file).isTrue();
        found.put(m.group(1), Files.getLastModifiedTime(file));
      }
    }
    return found;
  }

  private static JsonNode report(Run run) throws IOException {
    assertThat(run.exit()).as("exit code; stderr:\n%s", run.err()).isZero();
    // The whole of stdout is the report: no JVM line before or after it.
    return JSON.readTree(run.out());
  }

  @Test
  void aHelpRunRecordsNothing_andEachTableCommandRecordsItsOwnArchive() throws Exception {
    String demo = work.resolve("demo").toString();
    Map<String, String> defaultJava = Map.of("JAVA_HOME", System.getProperty("java.home"));

    assertThat(compactor(defaultJava, "inspect", "--help").exit()).isZero();
    assertThat(compactor(defaultJava, "run", "-h").exit()).isZero();
    assertThat(compactor(defaultJava, "vacuum", "--version").exit()).isZero();
    assertThat(compactor(defaultJava, "plan", "--help=true").exit()).isZero();
    Path helpFile = Files.writeString(work.resolve("args"), "--help\n");
    assertThat(compactor(defaultJava, "inspect", "@" + helpFile).exit()).isZero();
    // Before: the first of these recorded an archive of picocli's classes alone, which every later
    // run of the build mapped (the demo took 3.9 s instead of 2.5 s).
    assertThat(caches()).as("archives after help and version runs").isEmpty();

    Run recording = compactor(defaultJava, "run", "--work-dir", demo, "--json");
    assertThat(report(recording).get("files_after").asLong()).isEqualTo(3);
    // The JVM's notes on classes it cannot archive stay out of the user's stderr too.
    assertThat(recording.err()).doesNotContain("[cds", "[warning]", "[error]");
    String kind = javaFeature(Path.of(System.getProperty("java.home"))) >= 25 ? "aot" : "jsa";
    assertThat(caches()).containsOnlyKeys("run-c1." + kind);
    FileTime runArchive = caches().get("run-c1." + kind);

    String table = work.resolve("demo/demo_delta_table").toString();
    JsonNode inspected = report(compactor(defaultJava, "inspect", "--table-uri", table, "--json"));
    assertThat(inspected.get("total_files").asLong()).isEqualTo(3);
    // Before: one archive for the build, recorded by whichever command ran first.
    assertThat(caches()).containsOnlyKeys("run-c1." + kind, "inspect-c1." + kind);
    assertThat(caches().get("run-c1." + kind)).isEqualTo(runArchive);

    // A failed first run (no such table) leaves no archive of the classes it got to.
    assertThat(
            compactor(defaultJava, "plan", "--table-uri", work.resolve("none").toString()).exit())
        .isNotZero();
    assertThat(caches()).containsOnlyKeys("run-c1." + kind, "inspect-c1." + kind);
  }

  @Test
  void beforeJava25_theArchiveIsDumpedFromTheRunsClassList_andHoldsPicocliToo() throws Exception {
    Assumptions.assumeTrue(
        javaFeature(Path.of(System.getProperty("java.home"))) < 25,
        "the test JVM is Java 25+: the launcher records an AOT cache there (the test above)");
    // The user's JVM options are part of the key: the first run with them records its archive
    // (from the classes it loaded, dumped after it), the second maps it, as its log shows.
    Path loaded = work.resolve("classes.log");
    Map<String, String> logging =
        Map.of(
            "JAVA_HOME",
            System.getProperty("java.home"),
            "COMPACTOR_JAVA_OPTS",
            "-Xlog:class+load=info:file=" + loaded);
    Run recording = compactor(logging, "run", "--work-dir", work.resolve("a").toString(), "--json");
    assertThat(report(recording).get("files_after").asLong()).isEqualTo(3);
    assertThat(recording.err()).doesNotContain("[cds", "[warning]", "[error]");
    assertThat(caches()).containsOnlyKeys("run-c1.jsa");
    try (Stream<Path> files = Files.list(install.resolve("target/cds"))) {
      assertThat(files.map(f -> f.getFileName().toString()))
          .as("no class list or partial archive left behind")
          .allMatch(f -> f.endsWith("-run-c1.jsa") && !f.startsWith("."));
    }
    Files.delete(loaded);
    Run mapped = compactor(logging, "run", "--work-dir", work.resolve("b").toString(), "--json");
    assertThat(report(mapped).get("files_after").asLong()).isEqualTo(3);
    List<String> lines = Files.readAllLines(loaded);
    for (String type : List.of("company.data.compactor.cli.Main", "picocli.CommandLine")) {
      assertThat(lines)
          .as("%s, loaded from the archive (picocli's class files are Java 5's)", type)
          .anyMatch(l -> l.contains(" " + type + " ") && l.contains("source: shared objects file"));
    }
  }

  @Test
  void onJava25_theFirstRunRecordsAnAotCache_whoseMessagesNeverReachStdout_andLaterRunsMapIt()
      throws Exception {
    Optional<Path> jdk = javaHome(25);
    Assumptions.assumeTrue(
        jdk.isPresent(), "no JDK 25+ on this machine (COMPACTOR_TEST_JAVA25_HOME or /usr/lib/jvm)");
    Map<String, String> java25 = new HashMap<>(Map.of("JAVA_HOME", jdk.get().toString()));

    Run first = compactor(java25, "run", "--work-dir", work.resolve("a").toString(), "--json");
    assertThat(report(first).get("files_after").asLong()).isEqualTo(3);
    assertThat(first.err())
        .doesNotContain("AOTConfiguration", "AOTCache", "Picked up JAVA_TOOL_OPTIONS")
        .doesNotContain("WARNING: A restricted method");
    assertThat(caches()).containsOnlyKeys("run-c1.aot");

    // The user's JVM options are part of the key: this run records a cache of its own, and the
    // next run with them maps it, as the class-loading log shows.
    Path loaded = work.resolve("classes.log");
    java25.put("COMPACTOR_JAVA_OPTS", "-Xlog:class+load=info:file=" + loaded);
    report(compactor(java25, "run", "--work-dir", work.resolve("b").toString(), "--json"));
    try (Stream<Path> files = Files.list(install.resolve("target/cds"))) {
      assertThat(files.filter(f -> f.toString().endsWith("-run-c1.aot"))).hasSize(2);
    }
    Files.delete(loaded);
    Run mapped = compactor(java25, "run", "--work-dir", work.resolve("c").toString(), "--json");
    assertThat(report(mapped).get("files_after").asLong()).isEqualTo(3);
    assertThat(mapped.err()).doesNotContain("[aot]", "[cds]");
    assertThat(Files.readAllLines(loaded))
        .as("our Main class, loaded from the AOT cache")
        .anyMatch(
            l ->
                l.contains("company.data.compactor.cli.Main ")
                    && l.contains("source: shared objects file"));
  }

  /** The cache files of the install: each name with its modification time. */
  private Map<String, FileTime> cacheFiles() throws IOException {
    Map<String, FileTime> found = new HashMap<>();
    Path dir = install.resolve("target/cds");
    if (Files.isDirectory(dir)) {
      try (Stream<Path> files = Files.list(dir)) {
        for (Path file : files.toList()) {
          found.put(file.getFileName().toString(), Files.getLastModifiedTime(file));
        }
      }
    }
    return found;
  }

  /**
   * helper-12: the JVM's own option variables were not part of the cache's key, so a run with
   * another collector there recorded the cache, which every later plain run then could not map
   * (silently: "Unable to use shared archive"); and the project reached through a linked root had
   * another key than the project itself, so each run dropped the other's cache and recorded again.
   */
  @Test
  void aLinkedRootMapsTheSameCache_andTheJvmsOwnOptionVariablesGetTheirOwn() throws Exception {
    String table = DeletionVectorTables.inlineDeletionVector(work.resolve("table")).toString();
    Map<String, String> plain = Map.of("JAVA_HOME", System.getProperty("java.home"));

    assertThat(compactor(plain, "inspect", "--table-uri", table, "--json").exit()).isZero();
    Map<String, FileTime> recorded = cacheFiles();
    assertThat(recorded).hasSize(1);

    Path linked = Files.createSymbolicLink(work.resolve("linked-root"), install);
    assertThat(compactorAt(linked, plain, "inspect", "--table-uri", table, "--json").exit())
        .isZero();
    assertThat(cacheFiles()).as("the same project, the same cache").isEqualTo(recorded);

    Map<String, String> parallel = new HashMap<>(plain);
    parallel.put("JAVA_TOOL_OPTIONS", "-XX:+UseParallelGC");
    Run other = compactor(parallel, "inspect", "--table-uri", table, "--json");
    assertThat(other.exit()).as(other.err()).isZero();
    Map<String, FileTime> both = cacheFiles();
    assertThat(both).hasSize(2).containsAllEntriesOf(recorded);

    assertThat(compactor(plain, "inspect", "--table-uri", table, "--json").exit()).isZero();
    assertThat(cacheFiles()).as("the plain run maps its own again").isEqualTo(both);
  }

  @Test
  void theUsersOwnClassSharingChoice_runsTheCommand_andRecordsNothing() throws Exception {
    Map<String, String> off = Map.of("COMPACTOR_JAVA_OPTS", "-Xshare:off");
    // Before: the recording flag and -Xshare:off together stopped the JVM before the command.
    Run run = compactor(off, "run", "--work-dir", work.resolve("demo").toString(), "--json");
    assertThat(report(run).get("files_after").asLong()).isEqualTo(3);
    assertThat(caches()).isEmpty();
  }

  @Test
  void aTermForTheLauncherDuringItsRecordingRun_stopsTheJvm_andLeavesNoPartialCache()
      throws Exception {
    ProcessBuilder builder =
        new ProcessBuilder(
                install.resolve("bin/compactor").toString(),
                "run",
                "--work-dir",
                work.resolve("demo").toString(),
                "--json")
            .redirectOutput(work.resolve("out.json").toFile())
            .redirectError(work.resolve("err.log").toFile());
    builder.environment().remove("COMPACTOR_CDS");
    builder.environment().remove("COMPACTOR_JAVA_OPTS");
    Process launcher = builder.start();
    List<ProcessHandle> jvms = List.of();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (jvms.isEmpty() && System.nanoTime() < deadline) {
      jvms =
          launcher
              .descendants()
              .filter(p -> p.info().command().orElse("").endsWith("/java"))
              .toList();
      Thread.sleep(50);
    }
    assertThat(jvms).as("the recording JVM, a child of the launcher").isNotEmpty();
    Thread.sleep(1_000);

    launcher.destroy(); // SIGTERM, to the launcher alone (as a supervisor or timeout sends it)
    assertThat(launcher.waitFor(1, TimeUnit.MINUTES)).isTrue();

    // Before: the JVM went on without its launcher, compacted and printed its report afterwards.
    for (ProcessHandle jvm : jvms) {
      jvm.onExit().get(30, TimeUnit.SECONDS);
    }
    assertThat(Files.readString(work.resolve("out.json")))
        .as("the report of a run stopped by the TERM")
        .doesNotContain("files_after");
    assertThat(launcher.exitValue()).isNotZero();
    assertThat(caches()).as("no cache and no partial file").isEmpty();
  }

  /** A JDK of at least {@code feature}: the test's setting, else one in /usr/lib/jvm. */
  private static Optional<Path> javaHome(int feature) throws IOException {
    String set = System.getenv("COMPACTOR_TEST_JAVA25_HOME");
    if (set != null && !set.isBlank()) {
      return Optional.of(Path.of(set));
    }
    Path jvms = Path.of("/usr/lib/jvm");
    if (!Files.isDirectory(jvms)) {
      return Optional.empty();
    }
    try (Stream<Path> homes = Files.list(jvms)) {
      return homes
          .filter(h -> Files.isExecutable(h.resolve("bin/java")))
          .filter(h -> javaFeature(h) >= feature)
          .sorted()
          .findFirst();
    }
  }

  private static int javaFeature(Path home) {
    try {
      for (String line : Files.readAllLines(home.resolve("release"))) {
        Matcher m = Pattern.compile("JAVA_VERSION=\"(\\d+).*").matcher(line);
        if (m.matches()) {
          return Integer.parseInt(m.group(1));
        }
      }
    } catch (IOException e) {
      return 0;
    }
    return 0;
  }
}
