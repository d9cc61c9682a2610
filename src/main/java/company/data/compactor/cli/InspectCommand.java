package company.data.compactor.cli;

import company.data.compactor.config.InputKey;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code compactor inspect}: fragmentation per partition, read-only. */
@Command(
    name = "inspect",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Measure small-file fragmentation of a table per partition. Reads only: writes no file,",
      "no commit and no telemetry."
    })
final class InspectCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;
  @ParentCommand private Main main;
  @Mixin private CommonOptions common;

  @Option(names = "--table-uri", paramLabel = "URI", required = true,
      description = "Local path (relative to --work-dir), file: or s3:// URI.")
  String tableUri;

  @Mixin private GateFlags gate;

  @Override
  public Integer call() {
    Map<String, Object> inputs = new LinkedHashMap<>();
    inputs.put(InputKey.TABLE_URI.key(), tableUri);
    inputs.put(InputKey.DEMO_MODE.key(), false);
    gate.putInto(inputs);
    return CliInputs.run(spec, main, common, inputs, (pipeline, request, location) -> pipeline.inspectOnly(request, location));
  }
}
