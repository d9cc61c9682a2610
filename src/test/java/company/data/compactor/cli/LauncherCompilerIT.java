package company.data.compactor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/compactor} runs a small local table (the demo, a log under 1 MB) and the vacuum of any
 * local table with the quick compiler only ({@code -XX:TieredStopAtLevel=1}, a shorter run on 2
 * cores) and any other table with the JVM's default; a compiler level in {@code
 * COMPACTOR_JAVA_OPTS} wins. A short run on a small local table (not vacuum) also gets a young
 * generation of 256 MB (no collection during the demo) and no performance-data file; heap sizes or
 * a collector in {@code COMPACTOR_JAVA_OPTS} or {@code JAVA_TOOL_OPTIONS} win. Read from the JVM's
 * own final flags.
 */
class LauncherCompilerIT {

  @TempDir Path work;

  /** The compiler level the launched JVM ran with, from {@code -XX:+PrintFlagsFinal} on stderr. */
  private String tieredStopAtLevel(String javaOpts, String... args) throws Exception {
    return finalFlag("TieredStopAtLevel", javaOpts, args);
  }

  /** JVM options for the next launch in {@code JAVA_TOOL_OPTIONS}; none when empty. */
  private String toolOptions = "";

  /** The launched JVM's stderr of the last {@link #finalFlag}. */
  private String stderr = "";

  /** The value of the JVM flag {@code name} the launched JVM ran with. */
  private String finalFlag(String name, String javaOpts, String... args) throws Exception {
    ProcessBuilder builder =
        new ProcessBuilder(
                java.util.stream.Stream.concat(
                        java.util.stream.Stream.of("bin/compactor"), Arrays.stream(args))
                    .toList())
            .redirectError(work.resolve("err.log").toFile());
    builder.environment().put("COMPACTOR_JAVA_OPTS", ("-XX:+PrintFlagsFinal " + javaOpts).strip());
    builder.environment().put("COMPACTOR_CDS", "off");
    builder.environment().remove("JAVA_TOOL_OPTIONS");
    builder.environment().remove("JDK_JAVA_OPTIONS");
    if (!toolOptions.isEmpty()) {
      builder.environment().put("JAVA_TOOL_OPTIONS", toolOptions);
    }
    Process run = builder.start();
    run.getInputStream().readAllBytes();
    assertThat(run.waitFor(2, TimeUnit.MINUTES)).isTrue();
    // The JVM's own output goes to stderr (bin/compactor keeps stdout for the command's).
    String out = Files.readString(work.resolve("err.log"));
    stderr = out;
    return out.lines()
        .filter(l -> l.matches("\\s*\\w+ " + name + "\\s+=.*"))
        .map(l -> l.replaceAll(".*=\\s*(\\S+).*", "$1"))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + name + " in:\n" + out));
  }

  @Test
  void
      theDemo_andAnyLocalVacuum_runWithTheQuickCompiler_aBigLogWithTheDefault_andTheUsersChoiceWins()
          throws Exception {
    String demo = work.resolve("demo").toString();

    assertThat(tieredStopAtLevel("", "run", "--work-dir", demo)).isEqualTo("1");

    Path table = work.resolve("demo/demo_delta_table");
    assertThat(table.resolve("_delta_log")).isDirectory();
    assertThat(tieredStopAtLevel("", "inspect", "--table-uri", table.toString())).isEqualTo("1");
    // A log over 1 MB (padding kernel never reads): a long replay, where the optimising compiler
    // pays for itself.
    Files.write(table.resolve("_delta_log/padding.bin"), new byte[1_200_000]);
    assertThat(tieredStopAtLevel("", "inspect", "--table-uri", table.toString())).isEqualTo("4");
    assertThat(tieredStopAtLevel("", "inspect", "--table-uri=file:" + table)).isEqualTo("4");
    assertThat(tieredStopAtLevel("", "vacuum", "--table-uri", table.toString()))
        .as("vacuum of a local table, whatever its log's size")
        .isEqualTo("1");
    assertThat(tieredStopAtLevel("", "vacuum", "--table-uri", "s3://bucket/table"))
        .as("vacuum of a remote table")
        .isEqualTo("4");
    Files.delete(table.resolve("_delta_log/padding.bin"));
    assertThat(
            tieredStopAtLevel(
                "-XX:TieredStopAtLevel=4", "inspect", "--table-uri", table.toString()))
        .isEqualTo("4");
    assertThat(tieredStopAtLevel("", "history", "--table-uri", table.toString()))
        .as("not a table command: the default")
        .isEqualTo("4");
  }

  @Test
  void aShortRunOnASmallLocalTable_getsAYoungGenerationThatHoldsTheDemo_andNoPerfDataFile()
      throws Exception {
    long mb = 1024L * 1024;
    // The launcher sizes the young generation only where the JVM's default heap has room for it.
    long memory =
        ((com.sun.management.OperatingSystemMXBean)
                java.lang.management.ManagementFactory.getOperatingSystemMXBean())
            .getTotalMemorySize();
    org.junit.jupiter.api.Assumptions.assumeTrue(memory >= 2048 * mb, "under 2 GB of memory");
    String demo = work.resolve("demo").toString();

    assertThat(finalFlag("NewSize", "", "run", "--work-dir", demo)).isEqualTo("" + 256 * mb);
    assertThat(finalFlag("UsePerfData", "", "run", "--work-dir", demo)).isEqualTo("false");
    Path table = work.resolve("demo/demo_delta_table");
    assertThat(finalFlag("NewSize", "", "inspect", "--table-uri", table.toString()))
        .isEqualTo("" + 256 * mb);
    // The JVM's own sizing: a bigger log, a vacuum (of a table of any size), a remote table, a
    // command that is not a table's, and heap sizes or a collector the user chose.
    Files.write(table.resolve("_delta_log/padding.bin"), new byte[1_200_000]);
    assertThat(finalFlag("NewSize", "", "inspect", "--table-uri", table.toString()))
        .isNotEqualTo("" + 256 * mb);
    assertThat(finalFlag("UsePerfData", "", "inspect", "--table-uri", table.toString()))
        .isEqualTo("true");
    Files.delete(table.resolve("_delta_log/padding.bin"));
    assertThat(finalFlag("NewSize", "", "vacuum", "--table-uri", table.toString()))
        .isNotEqualTo("" + 256 * mb);
    assertThat(finalFlag("NewSize", "", "inspect", "--table-uri", "s3://bucket/table"))
        .isNotEqualTo("" + 256 * mb);
    assertThat(finalFlag("NewSize", "", "history", "--table-uri", table.toString()))
        .isNotEqualTo("" + 256 * mb);
    assertThat(finalFlag("MaxHeapSize", "-Xmx192m", "run", "--work-dir", demo))
        .isEqualTo("" + 192 * mb);
    assertThat(finalFlag("NewSize", "-Xmx192m", "run", "--work-dir", demo))
        .isNotEqualTo("" + 256 * mb);
    assertThat(finalFlag("NewSize", "-Xmn64m", "run", "--work-dir", demo)).isEqualTo("" + 64 * mb);
    assertThat(finalFlag("UseG1GC", "-XX:+UseG1GC", "run", "--work-dir", demo)).isEqualTo("true");
    assertThat(finalFlag("NewSize", "-XX:+UseG1GC", "run", "--work-dir", demo))
        .isNotEqualTo("" + 256 * mb);
    // A heap sized where the JVM, not the launcher's own variable, reads it (helper-10: the JVM
    // then warned that the young generation filled the whole heap).
    toolOptions = "-Xmx256m";
    assertThat(finalFlag("MaxHeapSize", "", "run", "--work-dir", demo)).isEqualTo("" + 256 * mb);
    assertThat(finalFlag("NewSize", "", "run", "--work-dir", demo)).isNotEqualTo("" + 256 * mb);
    assertThat(stderr).doesNotContain("[warning]").doesNotContain("VM warning");
    // A collector chosen there: the launcher's serial one beside it stopped the JVM before the
    // command ("Multiple garbage collectors selected", helper-10).
    toolOptions = "-XX:+UseG1GC";
    assertThat(finalFlag("UseG1GC", "", "run", "--work-dir", demo)).isEqualTo("true");
    assertThat(finalFlag("UseSerialGC", "", "inspect", "--table-uri", table.toString()))
        .isEqualTo("false");
    assertThat(stderr).doesNotContain("Multiple garbage collectors");
    // A flag that tunes a collector chooses none (helper-12: it matched, and G1 ran instead).
    toolOptions = "-XX:+UseDynamicNumberOfGCThreads -XX:+UseMaximumCompactionOnSystemGC";
    assertThat(finalFlag("UseSerialGC", "", "run", "--work-dir", demo)).isEqualTo("true");
    assertThat(finalFlag("NewSize", "", "run", "--work-dir", demo)).isEqualTo("" + 256 * mb);
    toolOptions = "";
    assertThat(finalFlag("NewSize", "-XX:OldSize=64m", "run", "--work-dir", demo))
        .isNotEqualTo("" + 256 * mb);
    assertThat(stderr).doesNotContain("[warning]").doesNotContain("VM warning");
  }
}
