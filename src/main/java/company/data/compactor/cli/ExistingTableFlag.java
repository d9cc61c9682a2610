package company.data.compactor.cli;

import company.data.compactor.config.InputKey;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/** The required table of the single-step commands (plan, inspect, vacuum): never a demo. */
final class ExistingTableFlag {

  @Option(
      names = "--table-uri",
      paramLabel = "URI",
      required = true,
      description = "Local path (relative to --work-dir), file: or s3:// URI.")
  String tableUri;

  /** Inputs holding this table with demo mode off. */
  Map<String, Object> inputs() {
    Map<String, Object> inputs = new LinkedHashMap<>();
    inputs.put(InputKey.TABLE_URI.key(), tableUri);
    inputs.put(InputKey.DEMO_MODE.key(), false);
    return inputs;
  }
}
