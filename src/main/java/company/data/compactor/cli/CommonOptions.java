package company.data.compactor.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Options every command takes. */
final class CommonOptions {

  @Option(
      names = "--work-dir",
      paramLabel = "DIR",
      description =
          "Directory for relative table paths and the local telemetry file"
              + " (.delta-compactor/telemetry.jsonl). Default: the current directory.")
  Path workDir = Path.of("");

  @Option(names = "--json", description = "Print the report alone, as JSON, on stdout.")
  boolean json;

  Path workDir() {
    return workDir.toAbsolutePath().normalize();
  }
}
