package company.data.compactor.wiring;

import company.data.compactor.admission.AdmittedRun;
import company.data.compactor.error.CompactorException;
import company.data.compactor.error.Errors;
import company.data.compactor.lease.Lease;
import company.data.compactor.lease.LeaseGuard;
import company.data.compactor.lease.LeaseStore;
import company.data.compactor.lease.Leases;
import company.data.compactor.notify.FailureAlert;
import company.data.compactor.notify.NotificationResult;
import company.data.compactor.pipeline.MaintenancePipeline;
import company.data.compactor.report.MaintenanceReport;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;

/**
 * How every entry point runs an admitted run that may change its table (CLI {@code run} and {@code
 * vacuum}, the direct Lambda event, the webhook hand-off, each scheduled table): take the table's
 * lease (or resume the one the webhook took), wire the pipeline with the lease's guard, run it with
 * the heartbeat going, release the lease, and put what became of it in {@code
 * lease_release_status}. A lease that cannot be taken, or released, or that was lost during the run
 * is alerted on Slack when the run asked for Slack.
 */
public final class LeasedRuns {

  private static final System.Logger LOG = System.getLogger(LeasedRuns.class.getName());

  /** One pipeline operation ({@code run}, {@code vacuumOnly}). */
  @FunctionalInterface
  public interface Operation {
    MaintenanceReport apply(MaintenancePipeline pipeline, AdmittedRun run);
  }

  private final Path workDir;
  private final Map<String, String> environment;
  private final Clock clock;
  private final Leases leases;

  /**
   * @throws CompactorException INVALID_REQUEST for a malformed lease setting (see {@link
   *     Wiring#leases})
   */
  public LeasedRuns(Path workDir, Map<String, String> environment, Clock clock) {
    this(workDir, environment, clock, Wiring.leases(workDir, environment, clock));
  }

  /** As the other constructor, with the leases given (tests). */
  public LeasedRuns(Path workDir, Map<String, String> environment, Clock clock, Leases leases) {
    this.workDir = workDir;
    this.environment = environment;
    this.clock = clock;
    this.leases = leases;
  }

  /** The leases runs are held under. */
  public Leases leases() {
    return leases;
  }

  /**
   * A run ready to start: its pipeline wired (so a malformed setting is refused before the lease is
   * taken) and its lease held.
   *
   * @param run the admitted run
   * @param lease its table's lease
   * @param pipeline the pipeline, asking {@code guard} before each commit
   * @param guard answers for the lease once {@link #run} holds it
   */
  public record Ready(
      AdmittedRun run, Lease lease, MaintenancePipeline pipeline, BoundGuard guard) {}

  /**
   * The guard the pipeline is wired with before the lease is held; {@link #run} binds it to the
   * heartbeat. Unbound, it refuses: nothing commits outside a held lease.
   */
  public static final class BoundGuard implements LeaseGuard {
    private volatile LeaseGuard bound;

    void bind(LeaseGuard guard) {
      bound = guard;
    }

    @Override
    public void assertHeld() {
      LeaseGuard guard = bound;
      if (guard == null) {
        throw Errors.refused("commit", "the run does not hold its table's lease yet");
      }
      guard.assertHeld();
    }
  }

  /**
   * Wires {@code run}'s pipeline and takes its table lease for {@code runId}.
   *
   * @throws CompactorException TABLE_NOT_FOUND when a run that does not seed the demo names a
   *     location with no table and its lease would be written there; INVALID_REQUEST for a
   *     malformed setting (before the lease); REFUSED naming the holder when another run holds the
   *     table, or OPERATION_FAILED when the store fails (alerted on Slack when asked for, as is a
   *     missing table); nothing touched
   */
  public Ready take(AdmittedRun run, String runId) {
    BoundGuard guard = new BoundGuard();
    MaintenancePipeline pipeline =
        Wiring.pipeline(run.location(), workDir, environment, runId, guard);
    try {
      requireTableBeforeLease(run, leases.store(), workDir, environment);
    } catch (CompactorException e) {
      alert(run, runId, "run", e.kind().name());
      throw e;
    }
    try {
      return new Ready(run, leases.take(run.location(), runId), pipeline, guard);
    } catch (CompactorException e) {
      alert(run, runId, "lease", e.kind().name());
      throw e;
    }
  }

  /**
   * Refuses a run of a table that is not there before its lease is written there: a run that does
   * not seed the demo, under a lease kept with the table ({@link LeaseStore#writesWithTable}), is
   * checked with {@link Wiring#requireTable}. A lease kept elsewhere (DynamoDB) writes nothing at
   * the table, and its store stays the first thing a run asks. Settings are validated before this
   * (wiring), so a malformed one is invalid input at any location.
   *
   * @throws CompactorException TABLE_NOT_FOUND, or OPERATION_FAILED when the log cannot be listed
   */
  public static void requireTableBeforeLease(
      AdmittedRun run, LeaseStore store, Path workDir, Map<String, String> environment) {
    if (!run.request().demoMode() && store.writesWithTable()) {
      Wiring.requireTable(run.location(), workDir, environment);
    }
  }

  /**
   * Resumes the lease a webhook took for {@code handedOver.owner()} to run {@code run}.
   *
   * @throws CompactorException REFUSED when the lease is for another table or no longer that run's
   *     (alerted on Slack when asked for); nothing touched
   */
  public Ready resume(AdmittedRun run, Lease handedOver) {
    if (!run.location().uri().equals(handedOver.tableUri())) {
      throw Errors.refused(
          "run hand-off " + handedOver.owner(),
          "its lease is for "
              + handedOver.tableUri()
              + " but its request names "
              + run.location()
              + ". Nothing was touched.");
    }
    BoundGuard guard = new BoundGuard();
    MaintenancePipeline pipeline =
        Wiring.pipeline(run.location(), workDir, environment, handedOver.owner(), guard);
    try {
      return new Ready(run, leases.resume(handedOver), pipeline, guard);
    } catch (CompactorException e) {
      alert(run, handedOver.owner(), "lease", e.kind().name());
      throw e;
    }
  }

  /**
   * Runs {@code operation} on a ready run under its lease (heartbeat, fencing, release) and returns
   * its report with {@code lease_release_status} filled in. A release that failed is in the report
   * and alerted, never thrown: the maintenance is done by then.
   */
  public MaintenanceReport run(Ready ready, Operation operation) {
    AdmittedRun run = ready.run();
    Lease lease = ready.lease();
    Leases.Held<MaintenanceReport> held =
        leases.hold(
            lease,
            guard -> {
              ready.guard().bind(guard);
              return operation.apply(ready.pipeline(), run);
            });
    if (held.releaseError().isPresent()) {
      alert(run, lease.owner(), "lease", "LEASE_NOT_RELEASED");
    } else if (held.lost().isPresent()) {
      alert(run, lease.owner(), "lease", "LEASE_LOST");
    }
    return held.value().withLeaseOutcome(held.releaseError(), held.lost());
  }

  /** A Slack alert about the run's lease, when the run asked for Slack; never fails the run. */
  private void alert(AdmittedRun run, String runId, String command, String errorClass) {
    if (!run.request().notifySlack()) {
      return;
    }
    try {
      NotificationResult sent =
          Wiring.notifier(environment)
              .failure(
                  new FailureAlert(
                      runId,
                      run.location().uri(),
                      command,
                      errorClass,
                      clock.instant().toString()));
      LOG.log(
          Level.INFO,
          "slack lease alert: table={0} run={1} {2}: {3} ({4})",
          run.location(),
          runId,
          errorClass,
          sent.status(),
          sent.detail());
    } catch (RuntimeException e) {
      LOG.log(
          Level.WARNING,
          "slack lease alert not sent: table={0} run={1}: {2}",
          run.location(),
          runId,
          e.getMessage());
    }
  }
}
