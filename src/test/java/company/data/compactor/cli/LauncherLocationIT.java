package company.data.compactor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/compactor} finds its project (and so its build) however it is started: through a
 * symbolic link, under an exported {@code CDPATH}, and with two builds' jars in {@code target/} (a
 * version changed without {@code mvn clean}), where the newest runs. helper-10 found each of these
 * broken: "not built yet", or a jar without the command.
 */
class LauncherLocationIT {

  private static final Path PROJECT = Path.of("").toAbsolutePath();
  private static final Path BUILD = PROJECT.resolve("target");
  private static final String VERSION_LINE = "delta-compactor ";

  @TempDir Path work;

  private record Run(int exit, String out, String err) {}

  private Run run(Path directory, Map<String, String> env, String... command) throws Exception {
    Path err = Files.createTempFile(work, "err", ".log");
    ProcessBuilder builder =
        new ProcessBuilder(List.of(command))
            .directory(directory.toFile())
            .redirectError(err.toFile());
    builder.environment().put("COMPACTOR_CDS", "off");
    builder.environment().remove("COMPACTOR_JAVA_OPTS");
    builder.environment().putAll(env);
    Process process = builder.start();
    String out = new String(process.getInputStream().readAllBytes());
    assertThat(process.waitFor(2, TimeUnit.MINUTES)).isTrue();
    return new Run(process.exitValue(), out, Files.readString(err));
  }

  private static void assertRanTheCommand(Run run) {
    assertThat(run.exit()).as("exit code; stderr:\n%s", run.err()).isZero();
    assertThat(run.out()).startsWith(VERSION_LINE);
  }

  @Test
  void aSymbolicLinkToTheLauncher_orALinkToThatLink_runsTheProjectsBuild() throws Exception {
    Path links = Files.createDirectories(work.resolve("links"));
    Path link =
        Files.createSymbolicLink(links.resolve("compactor"), PROJECT.resolve("bin/compactor"));
    Path second = Files.createSymbolicLink(links.resolve("dc"), Path.of("compactor"));

    assertRanTheCommand(run(work, Map.of(), link.toString(), "--version"));
    assertRanTheCommand(run(links, Map.of(), "./dc", "--version"));
    assertRanTheCommand(run(work, Map.of(), second.toString(), "--version"));
    // The bin directory as the link, called by path and found on PATH (helper-12: `cd bin/..`
    // went to the link's parent).
    Path binLink = Files.createSymbolicLink(work.resolve("binlink"), PROJECT.resolve("bin"));
    assertRanTheCommand(run(work, Map.of(), binLink.resolve("compactor").toString(), "--version"));
    assertRanTheCommand(
        run(
            work,
            Map.of("PATH", binLink + ":" + System.getenv("PATH")),
            "bash",
            "-c",
            "compactor --version"));
  }

  @Test
  void anExportedCdpath_withARelativeInvocation_keepsTheProjectRoot() throws Exception {
    // A directory on CDPATH with a bin/ of its own: `cd bin/..` would go there, and say so.
    Path elsewhere = work.resolve("elsewhere");
    Files.createDirectories(elsewhere.resolve("bin"));

    Run run = run(PROJECT, Map.of("CDPATH", elsewhere.toString()), "bin/compactor", "--version");

    assertRanTheCommand(run);
    assertThat(run.err()).doesNotContain("not built");
  }

  @Test
  void twoBuildsJars_theNewestRuns_whateverTheirVersionsSortAs() throws Exception {
    Path install = work.resolve("install");
    Files.createDirectories(install.resolve("bin"));
    Files.copy(PROJECT.resolve("bin/compactor"), install.resolve("bin/compactor"));
    install.resolve("bin/compactor").toFile().setExecutable(true);
    Path target = Files.createDirectories(install.resolve("target"));
    Files.createSymbolicLink(target.resolve("cli-lib"), BUILD.resolve("cli-lib"));
    Path built;
    try (var jars = Files.list(BUILD)) {
      built =
          jars.filter(p -> p.getFileName().toString().matches("delta-compactor-.*\\.jar"))
              .filter(p -> !p.getFileName().toString().endsWith("-runner.jar"))
              .findFirst()
              .orElseThrow();
    }
    Path current = Files.copy(built, target.resolve("delta-compactor-0.1.0-SNAPSHOT.jar"));
    // An older build's jar that sorts first by name; here one without the command at all.
    Path older = target.resolve("delta-compactor-0.0.9.jar");
    try (JarOutputStream jar = new JarOutputStream(Files.newOutputStream(older), new Manifest())) {
      // Empty: a jar without the command.
    }
    Instant now = Instant.now();
    Files.setLastModifiedTime(older, FileTime.from(now.minusSeconds(3600)));
    Files.setLastModifiedTime(current, FileTime.from(now.minusSeconds(60)));
    String launcher = install.resolve("bin/compactor").toString();

    assertRanTheCommand(run(work, Map.of(), launcher, "--version"));

    // The rule is the build's time, not the name: the jar built last runs even when it is the
    // one without the command.
    Files.setLastModifiedTime(older, FileTime.from(now));
    Run last = run(work, Map.of(), launcher, "--version");
    assertThat(last.exit()).isNotZero();
    assertThat(last.err()).contains("company.data.compactor.cli.Main");
  }
}
