package company.data.compactor.lambda;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import company.data.compactor.admission.Admission;
import company.data.compactor.admission.AdmittedRun;
import company.data.compactor.admission.Trigger;
import company.data.compactor.error.CompactorException;
import company.data.compactor.error.Errors;
import company.data.compactor.fanout.FanOutPlan;
import company.data.compactor.fanout.ItemResult;
import company.data.compactor.fanout.PlanStore;
import company.data.compactor.lease.Lease;
import company.data.compactor.lease.LeaseGuard;
import company.data.compactor.lease.Leases;
import company.data.compactor.model.TableLocation;
import company.data.compactor.report.MaintenanceReport;
import company.data.compactor.report.ReportJson;
import company.data.compactor.telemetry.EmfMetrics;
import company.data.compactor.wiring.LeasedRuns;
import company.data.compactor.wiring.Wiring;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * The three tasks of the fan-out state machine ({@code infra/template.yaml}), chosen by the event's
 * {@code task}:
 *
 * <ul>
 *   <li>{@code plan} ({@code run_id}, and {@code inputs}, optional {@code execution_reason} and
 *       {@code lease}, on top or in {@code start}): admits the inputs ({@link
 *       Trigger#STATE_MACHINE}), takes the table's lease for the run id, plans and stores the plan
 *       under the run id; answers the run id, the lease, {@code item_count} (the items stay where
 *       they are stored, {@code items_bucket}/{@code items_key} on S3, for the Distributed Map's
 *       ItemReader). A lease the webhook took for the same run id is continued, not taken again. A
 *       failure after the lease was taken releases it.
 *   <li>{@code compact} ({@code run_id}, {@code inputs}, {@code lease}, {@code item}): one
 *       partition's bins under the run's shared lease (renewed and checked before the commit, not
 *       released: see {@link Leases.OnExit#KEEP}); answers the {@link ItemResult}. A lease the run
 *       no longer holds answers {@code fenced} and writes nothing.
 *   <li>{@code finalize} ({@code run_id}, {@code inputs}, {@code lease}, optional {@code results}):
 *       collects the items (the log decides what committed), vacuums, reports, releases the lease;
 *       prints the EMF metric lines and answers the report.
 * </ul>
 */
final class FanOutTasks {

  private static final System.Logger LOG = System.getLogger(FanOutTasks.class.getName());

  private static final ObjectMapper SNAKE =
      new ObjectMapper()
          .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
          .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  private final Map<String, String> environment;
  private final Path workDir;
  private final Clock clock;
  private final Consumer<String> metricsOut;

  /**
   * @param metricsOut where EMF lines go (standard output in Lambda)
   */
  FanOutTasks(
      Map<String, String> environment, Path workDir, Clock clock, Consumer<String> metricsOut) {
    this.environment = environment;
    this.workDir = workDir;
    this.clock = clock;
    this.metricsOut = metricsOut;
  }

  /**
   * Runs the event's task.
   *
   * @throws CompactorException INVALID_REQUEST for an unknown task or broken inputs (nothing
   *     touched); as the task otherwise
   */
  Map<String, Object> handle(Map<String, Object> event) {
    Object task = event.get("task");
    if ("plan".equals(task)) {
      return plan(event);
    }
    if ("compact".equals(task)) {
      return compact(event);
    }
    if ("finalize".equals(task)) {
      return finalizeRun(event);
    }
    throw Errors.refused(
        "run a state machine task",
        "the event's task is "
            + task
            + "; it must be plan, compact or finalize. Nothing was touched.");
  }

  private AdmittedRun admit(Map<String, Object> event) {
    return Admission.configuredBy(environment, workDir).admit(Trigger.STATE_MACHINE, inputs(event));
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> plan(Map<String, Object> task) {
    String runId = text(task, "run_id", UUID.randomUUID().toString());
    // The state machine passes the execution's input whole as "start" (it may lack keys, which a
    // JSONPath in the definition could not tolerate); a direct call puts the same keys on top.
    Map<String, Object> event =
        task.get("start") instanceof Map<?, ?> start ? (Map<String, Object>) start : task;
    AdmittedRun run = admit(event);
    Leases leases = Wiring.leases(workDir, environment, clock);
    // Wired before the lease so a malformed setting is refused with nothing taken.
    PlanStore plans = Wiring.plans(workDir, environment);
    int maxConcurrency = maxConcurrency();
    // A webhook hand-off sends the lease it took for this run id: the run continues it.
    boolean handedOff =
        event.get("lease") instanceof Map<?, ?> handedOver && runId.equals(handedOver.get("owner"));
    if (!handedOff) {
      LeasedRuns.requireTableBeforeLease(run, leases.store(), workDir, environment);
    }
    Lease lease = handedOff ? leases.resume(lease(event)) : leases.take(run.location(), runId);
    FanOutPlan plan;
    try {
      plan =
          leases
              .hold(
                  lease,
                  Leases.OnExit.KEEP,
                  guard ->
                      Wiring.fanOut(run.location(), workDir, environment, runId, guard)
                          .plan(run, runId))
              .value();
    } catch (RuntimeException e) {
      leases.store().release(lease);
      throw e;
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("run_id", runId);
    out.put("table_uri", plan.tableUri());
    out.put("inputs", plan.inputs());
    out.put("execution_reason", event.getOrDefault("execution_reason", "started by the operator"));
    out.put("lease", leaseFields(lease));
    out.put("read_version", plan.readVersion());
    out.put("bytes_to_rewrite", plan.bytesToRewrite());
    out.put("item_count", plan.items().size());
    out.put("max_concurrency", maxConcurrency);
    // The items themselves stay in S3 (items.json, the Map's ItemReader): a thousand partitions
    // inline would outgrow the 256 KB a state may pass on.
    out.put("plan_uri", plans.planPath(runId));
    TableLocation itemsAt = new TableLocation(plans.itemsPath(runId));
    if (itemsAt.scheme() == TableLocation.Scheme.S3) {
      String uri = itemsAt.uri().substring("s3://".length());
      out.put("items_bucket", uri.substring(0, uri.indexOf('/')));
      out.put("items_key", uri.substring(uri.indexOf('/') + 1));
    }
    return out;
  }

  /** The variable bounding the Distributed Map's concurrency (the Plan task answers it). */
  static final String MAX_CONCURRENCY_VARIABLE = "COMPACTOR_FAN_OUT_MAX_CONCURRENCY";

  /** Workers at once when {@value #MAX_CONCURRENCY_VARIABLE} is unset. */
  static final int DEFAULT_MAX_CONCURRENCY = 20;

  private int maxConcurrency() {
    String raw = environment.get(MAX_CONCURRENCY_VARIABLE);
    if (raw == null || raw.isBlank()) {
      return DEFAULT_MAX_CONCURRENCY;
    }
    try {
      int value = Integer.parseInt(raw.strip());
      if (value >= 1) {
        return value;
      }
    } catch (NumberFormatException e) {
      // refused below
    }
    throw Errors.invalidRequest(
        List.of(
            new company.data.compactor.error.Violation(
                MAX_CONCURRENCY_VARIABLE, raw, "must be a whole number of workers >= 1")));
  }

  private Map<String, Object> compact(Map<String, Object> event) {
    String runId = text(event, "run_id", null);
    int index = number(event, "item");
    AdmittedRun run = admit(event);
    Lease lease = lease(event);
    FanOutPlan plan = Wiring.plans(workDir, environment).load(runId);
    Leases leases = Wiring.leases(workDir, environment, clock);
    Lease resumed;
    try {
      resumed = leases.resume(lease);
    } catch (CompactorException e) {
      if (e.kind() != CompactorException.Kind.REFUSED) {
        throw e;
      }
      // The run no longer holds its table (another run took the lease over): fenced, as an
      // in-process partition would be before its commit.
      String partition =
          index >= 0 && index < plan.items().size() ? plan.items().get(index).partition() : "";
      return SNAKE.convertValue(
          new ItemResult(
              index,
              partition,
              ItemResult.Status.FENCED,
              null,
              0,
              0,
              0,
              0,
              0,
              0,
              e.getMessage() + " Nothing was written."),
          LinkedHashMap.class);
    }
    ItemResult result =
        leases
            .hold(
                resumed,
                Leases.OnExit.KEEP,
                guard ->
                    Wiring.fanOut(run.location(), workDir, environment, runId, guard)
                        .compact(run, plan, index))
            .value();
    return SNAKE.convertValue(result, LinkedHashMap.class);
  }

  private Map<String, Object> finalizeRun(Map<String, Object> event) {
    String runId = text(event, "run_id", null);
    AdmittedRun run = admit(event);
    Lease lease = lease(event);
    FanOutPlan plan = Wiring.plans(workDir, environment).load(runId);
    List<ItemResult> results = results(event.get("results"));
    String reason = text(event, "execution_reason", "started by the operator");
    Leases leases = Wiring.leases(workDir, environment, clock);
    MaintenanceReport report;
    Lease resumed;
    try {
      resumed = leases.resume(lease);
    } catch (CompactorException e) {
      LOG.log(Level.WARNING, "finalize without the lease: run={0}: {1}", runId, e.getMessage());
      resumed = null;
    }
    if (resumed == null) {
      // Another run holds the table: report what the items did, touch nothing (vacuum is fenced).
      LeaseGuard lost =
          () -> {
            throw Errors.refused("vacuum " + run.location(), "run " + runId + " lost its lease");
          };
      report =
          Wiring.fanOut(run.location(), workDir, environment, runId, lost)
              .finish(run, plan, results, reason)
              .withLeaseOutcome(
                  java.util.Optional.empty(), java.util.Optional.of("lost before Finalize"));
    } else {
      Leases.Held<MaintenanceReport> held =
          leases.hold(
              resumed,
              guard ->
                  Wiring.fanOut(run.location(), workDir, environment, runId, guard)
                      .finish(run, plan, results, reason));
      report = held.value().withLeaseOutcome(held.releaseError(), held.lost());
    }
    EmfMetrics.lines(report, Instant.now(clock)).forEach(metricsOut);
    return ReportJson.asMap(report);
  }

  /**
   * Item results as the state machine passes them; an error object (a caught failure) counts as
   * failed.
   */
  @SuppressWarnings("unchecked")
  private static List<ItemResult> results(Object raw) {
    List<ItemResult> results = new ArrayList<>();
    if (!(raw instanceof List<?> list)) {
      return results;
    }
    for (Object entry : list) {
      if (!(entry instanceof Map<?, ?> map) || !(map.get("item") instanceof Number n)) {
        continue;
      }
      Map<String, Object> m = (Map<String, Object>) map;
      if (m.get("status") instanceof String) {
        results.add(SNAKE.convertValue(m, ItemResult.class));
      } else {
        results.add(
            ItemResult.failed(
                n.intValue(),
                String.valueOf(m.getOrDefault("partition", "")),
                "the item failed: "
                    + m.getOrDefault("error", "")
                    + " "
                    + m.getOrDefault("cause", "")));
      }
    }
    return results;
  }

  static Map<String, Object> leaseFields(Lease lease) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("key", lease.key());
    fields.put("table_uri", lease.tableUri());
    fields.put("owner", lease.owner());
    fields.put("acquired_at", lease.acquiredAt().toString());
    fields.put("expires_at", lease.expiresAt().toString());
    return fields;
  }

  @SuppressWarnings("unchecked")
  private static Lease lease(Map<String, Object> event) {
    if (!(event.get("lease") instanceof Map<?, ?> raw)) {
      throw Errors.refused(
          "run a state machine task", "the event carries no lease. Nothing was touched.");
    }
    Map<String, Object> m = (Map<String, Object>) raw;
    try {
      return new Lease(
          (String) m.get("key"),
          (String) m.get("table_uri"),
          (String) m.get("owner"),
          Instant.parse((String) m.get("acquired_at")),
          Instant.parse((String) m.get("expires_at")));
    } catch (RuntimeException e) {
      throw Errors.refused(
          "run a state machine task",
          "its lease is malformed (" + e.getMessage() + "). Nothing was touched.");
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> inputs(Map<String, Object> event) {
    return event.get("inputs") instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
  }

  private static String text(Map<String, Object> event, String key, String fallback) {
    Object value = event.get(key);
    if (value instanceof String s && !s.isBlank()) {
      return s;
    }
    if (fallback == null) {
      throw Errors.refused(
          "run a state machine task", "the event has no " + key + ". Nothing was touched.");
    }
    return fallback;
  }

  private static int number(Map<String, Object> event, String key) {
    if (event.get(key) instanceof Number n) {
      return n.intValue();
    }
    throw Errors.refused(
        "run a state machine task", "the event has no numeric " + key + ". Nothing was touched.");
  }
}
