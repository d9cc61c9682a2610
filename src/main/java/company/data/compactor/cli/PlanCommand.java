package company.data.compactor.cli;

import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code compactor plan}: the compaction plan {@code run} would execute, without rewriting. */
@Command(
    name = "plan",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Print the compaction plan that 'run' would execute (same planner), per partition: the "
          + "gate decision and the bins of adjacent small files. Reads only: no file, commit or "
          + "telemetry is written."
    })
final class PlanCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;
  @ParentCommand private Main main;
  @Mixin private CommonOptions common;

  @Mixin private ExistingTableFlag table;
  @Mixin private GateFlags gate;
  @Mixin private CompactionFlags compaction;

  @Override
  public Integer call() {
    Map<String, Object> inputs = table.inputs();
    gate.putInto(inputs);
    compaction.putInto(inputs);
    return CliInputs.run(spec, main, common, inputs, (pipeline, run) -> pipeline.planOnly(run));
  }
}
