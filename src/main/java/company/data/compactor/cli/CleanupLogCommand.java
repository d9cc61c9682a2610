package company.data.compactor.cli;

import company.data.compactor.config.InputKey;
import company.data.compactor.config.MaintenanceRequest;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code compactor cleanup-log}: only the log hygiene step. */
@Command(
    name = "cleanup-log",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Keep the Delta log short, as Delta Lake does: write a checkpoint when the log has at least"
          + " delta.checkpointInterval (default 10) commits since the newest one, then delete"
          + " commits, checkpoints and checksums older than delta.logRetentionDuration (default"
          + " 30 days, cutoff truncated to midnight UTC) that no readable version needs: only whole"
          + " stretches before a later checkpoint, never the newest checkpoint, _last_checkpoint or"
          + " anything without a checkpoint before it. Time travel keeps working for every version"
          + " from the oldest checkpoint left. delta.enableExpiredLogCleanup=false deletes nothing."
          + " Dry run (the default) writes and deletes nothing and reports what would go."
    })
final class CleanupLogCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;
  @ParentCommand private Main main;
  @Mixin private CommonOptions common;

  @Mixin private ExistingTableFlag table;

  @Option(
      names = {"--vacuum-dry-run", "--dry-run"},
      paramLabel = "true|false",
      description =
          "Report without writing the checkpoint or deleting (the same input as vacuum's). Default: "
              + MaintenanceRequest.DEFAULT_VACUUM_DRY_RUN)
  String dryRun;

  @Override
  public Integer call() {
    Map<String, Object> inputs = table.inputs();
    CliInputs.put(inputs, InputKey.VACUUM_DRY_RUN, dryRun);
    return CliInputs.runLeased(
        spec, main, common, inputs, (pipeline, run) -> pipeline.cleanupLogOnly(run));
  }
}
