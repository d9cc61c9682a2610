package company.data.compactor.lambda;

import company.data.compactor.admission.AdmittedRun;
import company.data.compactor.fanout.ExecutionBudget;
import company.data.compactor.fanout.ExecutionMode;
import company.data.compactor.report.MaintenanceReport;
import company.data.compactor.wiring.Wiring;
import java.nio.file.Path;
import java.util.Map;

/**
 * Decides where a scheduled or handed-off run executes: through the fan-out state machine when one
 * is configured ({@value StateMachineStarter#ARN_VARIABLE}) and the table's plan exceeds one
 * invocation's budget ({@link ExecutionBudget}, from the plan's bytes and the bench's MB/s), in
 * process otherwise. Planning reads the table only. Demo runs always stay in process (the table is
 * seeded by the run itself, and small).
 */
final class RunRouting {

  private RunRouting() {}

  /** Where {@code run} executes, and why. */
  static ExecutionBudget.Decision decide(
      AdmittedRun run, Map<String, String> environment, Path workDir) {
    ExecutionBudget budget = Wiring.executionBudget(environment);
    String arn = environment.get(StateMachineStarter.ARN_VARIABLE);
    if (arn == null || arn.isBlank()) {
      return new ExecutionBudget.Decision(
          ExecutionMode.IN_PROCESS, 0, 0, "no fan-out state machine is configured");
    }
    if (run.request().demoMode()) {
      return new ExecutionBudget.Decision(
          ExecutionMode.IN_PROCESS, 0, 0, "demo runs seed a small table in process");
    }
    MaintenanceReport plan = Wiring.pipeline(run.location(), workDir, environment).planOnly(run);
    long bytes =
        plan.compaction() == null || plan.compaction().compactionPlan() == null
            ? 0
            : plan.compaction().compactionPlan().bytesToRewrite();
    return budget.decide(bytes);
  }
}
