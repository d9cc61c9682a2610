package company.data.compactor.cli;

import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code compactor inspect}: fragmentation per partition, read-only. */
@Command(
    name = "inspect",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Measure small-file fragmentation of a table per partition. Reads only: writes no file, "
          + "no commit and no telemetry."
    })
final class InspectCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;
  @ParentCommand private Main main;
  @Mixin private CommonOptions common;

  @Mixin private ExistingTableFlag table;
  @Mixin private GateFlags gate;

  @Override
  public Integer call() {
    Map<String, Object> inputs = table.inputs();
    gate.putInto(inputs);
    return CliInputs.run(spec, main, common, inputs, (pipeline, run) -> pipeline.inspectOnly(run));
  }
}
