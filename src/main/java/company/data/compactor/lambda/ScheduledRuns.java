package company.data.compactor.lambda;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.admission.Admission;
import company.data.compactor.admission.AdmittedRun;
import company.data.compactor.admission.Trigger;
import company.data.compactor.error.CompactorException;
import company.data.compactor.error.Errors;
import company.data.compactor.error.Violation;
import company.data.compactor.fanout.ExecutionBudget;
import company.data.compactor.fanout.ExecutionMode;
import company.data.compactor.report.ExecutionReport;
import company.data.compactor.report.MaintenanceReport;
import company.data.compactor.report.ReportJson;
import company.data.compactor.telemetry.EmfMetrics;
import company.data.compactor.wiring.LeasedRuns;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The nightly run: maintenance of every table in {@value #TABLES_VARIABLE} (a JSON array of
 * request-input objects, each over the server defaults, see {@link
 * company.data.compactor.admission.RemoteInputs}), one after the other. Every entry is admitted
 * ({@link Admission}, trigger {@link Trigger#SCHEDULE}) before any table is touched; then each
 * table runs under its lease ({@link LeasedRuns}) and in isolation: a failure is recorded in its
 * outcome and the next table still runs; a table whose lease another run holds is skipped. Each
 * report carries {@code lease_release_status}; a lease that cannot be taken or released is alerted
 * on Slack when the entry asks for Slack.
 */
final class ScheduledRuns {

  private static final System.Logger LOG = System.getLogger(ScheduledRuns.class.getName());
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The variable listing the scheduled tables. */
  static final String TABLES_VARIABLE = "COMPACTOR_SCHEDULED_TABLES";

  /** Starts a fan-out run of a table; answers the execution's id. */
  @FunctionalInterface
  interface FanOut {
    String start(String runId, AdmittedRun run, String reason);
  }

  /**
   * What the schedule needs, built by the function per invocation.
   *
   * @param fanOut starts the state machine for a table over one invocation's budget (see {@link
   *     RunRouting}); used only when {@value StateMachineStarter#ARN_VARIABLE} is set
   * @param metrics where each in-process report's EMF lines go
   */
  record Parts(
      Map<String, String> environment,
      Path workDir,
      LeasedRuns runs,
      Supplier<String> runIds,
      FanOut fanOut,
      Consumer<String> metrics) {

    /** Parts without a fan-out (no state machine configured) and EMF lines on standard output. */
    Parts(Map<String, String> environment, Path workDir, LeasedRuns runs, Supplier<String> runIds) {
      this(
          environment,
          workDir,
          runs,
          runIds,
          (runId, run, reason) -> {
            throw new IllegalStateException("no fan-out state machine in these parts");
          },
          System.out::println);
    }
  }

  private final Parts parts;

  ScheduledRuns(Parts parts) {
    this.parts = parts;
  }

  /** Whether {@code event} is an EventBridge scheduled event. */
  static boolean isScheduledEvent(Map<String, Object> event) {
    return "aws.events".equals(event.get("source"))
        || "Scheduled Event".equals(event.get("detail-type"));
  }

  /**
   * The configured tables, every one admitted.
   *
   * @throws CompactorException INVALID_REQUEST naming every problem as {@code tables[i].key}, when
   *     the configuration is missing, malformed, or any entry breaks a rule or the allowlist
   */
  List<AdmittedRun> targets() {
    String raw = parts.environment().get(TABLES_VARIABLE);
    if (raw == null || raw.isBlank()) {
      throw Errors.invalidRequest(
          List.of(
              new Violation(
                  TABLES_VARIABLE,
                  "",
                  "must list the tables to maintain, e.g. [{\"table_uri\": \"s3://bucket/tables/events\"}]")));
    }
    List<Map<String, Object>> entries;
    try {
      entries = JSON.readValue(raw, new TypeReference<List<Map<String, Object>>>() {});
    } catch (JsonProcessingException e) {
      throw Errors.invalidRequest(
          List.of(
              new Violation(
                  TABLES_VARIABLE, raw, "must be a JSON array of request-input objects")));
    }
    if (entries.isEmpty()) {
      throw Errors.invalidRequest(
          List.of(new Violation(TABLES_VARIABLE, raw, "must list at least one table")));
    }
    Admission admission = Admission.configuredBy(parts.environment(), parts.workDir());
    List<Violation> problems = new ArrayList<>();
    List<AdmittedRun> targets = new ArrayList<>();
    for (int i = 0; i < entries.size(); i++) {
      String prefix = "tables[" + i + "].";
      try {
        targets.add(admission.admit(Trigger.SCHEDULE, entries.get(i)));
      } catch (CompactorException e) {
        if (!e.isInvalidInput()) {
          throw e;
        }
        e.violations()
            .forEach(v -> problems.add(new Violation(prefix + v.key(), v.value(), v.rule())));
      }
    }
    if (!problems.isEmpty()) {
      throw Errors.invalidRequest(problems);
    }
    return targets;
  }

  /** Runs every configured table; the result lists each table's outcome in order. */
  Map<String, Object> run() {
    List<AdmittedRun> targets = targets();
    LOG.log(Level.INFO, "schedule: {0} table(s) to maintain", targets.size());
    List<Map<String, Object>> outcomes = new ArrayList<>();
    int succeeded = 0;
    int failed = 0;
    int skipped = 0;
    int started = 0;
    for (AdmittedRun target : targets) {
      Map<String, Object> outcome = runOne(target);
      outcomes.add(outcome);
      switch ((String) outcome.get("status")) {
        case "succeeded" -> succeeded++;
        case "skipped" -> skipped++;
        case "started" -> started++;
        default -> failed++;
      }
    }
    LOG.log(
        Level.INFO,
        "schedule: done, succeeded={0} failed={1} skipped={2}",
        succeeded,
        failed,
        skipped);
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("trigger", "schedule");
    result.put("tables_total", targets.size());
    result.put("succeeded", succeeded);
    result.put("failed", failed);
    result.put("skipped", skipped);
    result.put("started", started);
    result.put("tables", outcomes);
    return result;
  }

  private Map<String, Object> runOne(AdmittedRun target) {
    String runId = parts.runIds().get();
    Map<String, Object> outcome = new LinkedHashMap<>();
    outcome.put("table_uri", target.location().uri());
    outcome.put("execution_id", runId);
    ExecutionBudget.Decision decision;
    try {
      decision = RunRouting.decide(target, parts.environment(), parts.workDir());
    } catch (RuntimeException e) {
      return failed(outcome, target, e);
    }
    outcome.put("execution_mode", decision.mode().label());
    outcome.put("execution_reason", decision.reason());
    if (decision.mode() == ExecutionMode.STATE_MACHINE) {
      try {
        String execution = parts.fanOut().start(runId, target, decision.reason());
        LOG.log(
            Level.INFO,
            "schedule: table={0} started fan-out run {1} ({2})",
            target.location(),
            runId,
            decision.reason());
        outcome.put("status", "started");
        outcome.put("state_machine_execution", execution);
        return outcome;
      } catch (RuntimeException e) {
        return failed(outcome, target, e);
      }
    }
    LeasedRuns.Ready ready;
    try {
      ready = parts.runs().take(target, runId);
    } catch (CompactorException e) {
      if (e.kind() != CompactorException.Kind.REFUSED) {
        return failed(outcome, target, e);
      }
      LOG.log(Level.INFO, "schedule: table={0} skipped: {1}", target.location(), e.getMessage());
      outcome.put("status", "skipped");
      outcome.put("reason", e.getMessage());
      return outcome;
    }
    try {
      MaintenanceReport report =
          parts
              .runs()
              .run(ready, (pipeline, run) -> pipeline.run(run))
              .withExecution(ExecutionReport.inProcess(decision.reason()));
      EmfMetrics.lines(report, java.time.Instant.now()).forEach(parts.metrics());
      outcome.put("status", "succeeded");
      outcome.put("report", ReportJson.asMap(report));
      return outcome;
    } catch (RuntimeException e) {
      return failed(outcome, target, e);
    }
  }

  private static Map<String, Object> failed(
      Map<String, Object> outcome, AdmittedRun target, RuntimeException e) {
    String kind = e instanceof CompactorException ce ? ce.kind().name() : "UNEXPECTED";
    LOG.log(
        Level.ERROR,
        "schedule: table={0} failed ({1}): {2}",
        target.location(),
        kind,
        e.getMessage());
    outcome.put("status", "failed");
    outcome.put("error_kind", kind);
    outcome.put(
        "error",
        e instanceof CompactorException
            ? e.getMessage()
            : e.getClass().getSimpleName() + ": " + e.getMessage());
    return outcome;
  }
}
