package company.data.compactor.lease;

import company.data.compactor.error.CompactorException;
import company.data.compactor.error.Errors;
import company.data.compactor.model.TableLocation;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Runs work while holding a table's lease, for entry points that start a run themselves (the
 * command line, a direct or scheduled Lambda invocation).
 */
public final class Leases {

  private static final System.Logger LOG = System.getLogger(Leases.class.getName());

  /** Leases outlive the Lambda timeout (15 minutes) so a running invocation never loses one. */
  public static final Duration DEFAULT_TTL = Duration.ofMinutes(20);

  private final LeaseStore store;
  private final Clock clock;
  private final Duration ttl;

  /**
   * @param ttl how long a lease lasts without renewal; longer than any one run may take
   */
  public Leases(LeaseStore store, Clock clock, Duration ttl) {
    this.store = store;
    this.clock = clock;
    this.ttl = ttl;
  }

  /** The store behind these leases. */
  public LeaseStore store() {
    return store;
  }

  /** How long a lease lasts without renewal. */
  public Duration ttl() {
    return ttl;
  }

  /**
   * Takes the table's lease for {@code owner}, runs {@code work}, and releases the lease whatever
   * happens.
   *
   * @throws company.data.compactor.error.CompactorException REFUSED naming the holder when another
   *     run holds the table; nothing is touched then
   */
  public <T> T holding(TableLocation table, String owner, Supplier<T> work) {
    LeaseAttempt attempt = store.tryAcquire(table, owner, clock.instant(), ttl);
    Lease lease = attempt.acquired().orElseThrow(() -> busy(table, attempt.heldBy().orElseThrow()));
    LOG.log(Level.INFO, "lease taken: table={0} run={1} until={2} store={3}", table, owner, lease.expiresAt(), store.describe());
    try {
      return work.get();
    } finally {
      store.release(lease);
      LOG.log(Level.INFO, "lease released: table={0} run={1}", table, owner);
    }
  }

  /**
   * Runs {@code work} under a lease the hand-off's sender took for {@code lease.owner()}, renewing
   * it first and releasing it afterwards.
   *
   * @throws company.data.compactor.error.CompactorException REFUSED when the lease is no longer
   *     held by that owner (released by a finished run, or taken over after expiry); nothing is
   *     touched then
   */
  public <T> T continuing(Lease lease, Supplier<T> work) {
    Lease renewed =
        store.renew(lease, clock.instant(), ttl)
            .orElseThrow(() -> Errors.refused(
                "run maintenance of " + lease.tableUri() + " for run " + lease.owner(),
                "that run no longer holds the table's lease (it already finished, or the lease"
                    + " expired and another run took it). Nothing was touched; trigger a new run."));
    try {
      return work.get();
    } finally {
      store.release(renewed);
      LOG.log(Level.INFO, "lease released: table={0} run={1}", lease.tableUri(), lease.owner());
    }
  }

  /** The error for a table another run holds. */
  public static CompactorException busy(TableLocation table, Lease holder) {
    return Errors.refused(
        "maintain " + table,
        "run " + holder.owner() + " holds the table's lease until " + holder.expiresAt()
            + " (taken " + holder.acquiredAt() + "). Nothing was touched; try again after that run"
            + " finishes.");
  }
}
