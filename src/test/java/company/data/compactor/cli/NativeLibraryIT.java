package company.data.compactor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built {@code bin/compactor} loads DuckDB's native library where it lies beside the driver
 * classes, instead of unpacking 72 MB into {@code java.io.tmpdir} in every process (about 0.4 s of
 * each command). Proved by a demo run whose temporary directory does not exist: the driver's
 * unpacking would fail there, so the run completing means nothing was unpacked.
 */
class NativeLibraryIT {

  private static final Path CLI_LIB = Path.of("target", "cli-lib");

  @TempDir Path work;

  @Test
  void theDemoRun_compactsWithNoTemporaryDirectory_soDuckDbIsLoadedInPlace() throws Exception {
    Path missingTmp = work.resolve("no-such-tmp");
    ProcessBuilder builder =
        new ProcessBuilder(
                "bin/compactor", "run", "--work-dir", work.resolve("demo").toString(), "--json")
            .redirectError(work.resolve("run.log").toFile());
    builder.environment().put("COMPACTOR_JAVA_OPTS", "-Djava.io.tmpdir=" + missingTmp);
    builder.environment().put("COMPACTOR_CDS", "off");
    Process run = builder.start();
    byte[] out = run.getInputStream().readAllBytes();
    assertThat(run.waitFor(2, TimeUnit.MINUTES)).isTrue();

    assertThat(run.exitValue())
        .as("exit code; its log:\n%s", Files.readString(work.resolve("run.log")))
        .isZero();
    JsonNode report = new ObjectMapper().readTree(out);
    assertThat(report.get("compacted").asBoolean()).isTrue();
    assertThat(report.get("files_after").asLong()).isEqualTo(3);
    assertThat(missingTmp).doesNotExist();
  }

  @Test
  void theCliClasspath_holdsNoJarWithNativeLibraries_andThisPlatformsLibraryBesideIt()
      throws Exception {
    List<Path> jars;
    try (Stream<Path> files = Files.list(CLI_LIB)) {
      // bin/compactor leaves out a stock driver jar an older build left here.
      jars =
          files
              .filter(p -> p.getFileName().toString().endsWith(".jar"))
              .filter(p -> !p.getFileName().toString().startsWith("duckdb_jdbc-"))
              .toList();
    }
    assertThat(jars).anyMatch(p -> p.getFileName().toString().endsWith("-duckdb-nolib.jar"));
    for (Path jar : jars) {
      try (ZipFile zip = new ZipFile(jar.toFile())) {
        assertThat(zip.stream().map(e -> e.getName()))
            .as("native libraries inside %s (they would be unpacked on every run)", jar)
            .noneMatch(name -> name.startsWith("libduckdb_java"));
      }
    }
    String arch = System.getProperty("os.arch").equals("aarch64") ? "arm64" : "amd64";
    assertThat(CLI_LIB.resolve("libduckdb_java.so_linux_" + arch)).isRegularFile();
  }
}
