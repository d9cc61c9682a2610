package company.data.compactor.cli;

import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code compactor vacuum}: only the vacuum step. */
@Command(
    name = "vacuum",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Delete files no reader can still need: lite mode removes files whose tombstones are "
          + "older than the retention; full mode also removes untracked files older than it. "
          + "Retention is the longest of 168 h (a floor with no override), --vacuum-retention-hours "
          + "and the table's delta.deletedFileRetentionDuration. Dry run (the default) lists "
          + "candidates, deletes nothing."
    })
final class VacuumCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;
  @ParentCommand private Main main;
  @Mixin private CommonOptions common;

  @Mixin private ExistingTableFlag table;
  @Mixin private VacuumFlags vacuum;

  @Override
  public Integer call() {
    Map<String, Object> inputs = table.inputs();
    vacuum.putInto(inputs);
    return CliInputs.runLeased(
        spec, main, common, inputs, (pipeline, run) -> pipeline.vacuumOnly(run));
  }
}
