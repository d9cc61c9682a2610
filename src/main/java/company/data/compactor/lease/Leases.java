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
   * Attempts to release a lease before the failure is reported (the store's client retries each
   * too).
   */
  public static final int RELEASE_ATTEMPTS = 3;

  /**
   * What {@link #hold} returns: the work's result and, when the lease could not be released, why
   * and until when it blocks the table.
   */
  public record Held<T>(T value, java.util.Optional<String> releaseError) {}

  /**
   * Takes the table's lease for {@code owner}, runs {@code work}, and releases the lease whatever
   * happens. A failed release is logged and never replaces the work's result or error (it is added
   * to an error as suppressed).
   *
   * @throws company.data.compactor.error.CompactorException REFUSED naming the holder when another
   *     run holds the table; nothing is touched then
   */
  public <T> T holding(TableLocation table, String owner, Supplier<T> work) {
    return hold(take(table, owner), work).value();
  }

  /**
   * Takes the table's lease for {@code owner}.
   *
   * @throws company.data.compactor.error.CompactorException REFUSED naming the holder when another
   *     run holds the table; OPERATION_FAILED when the store fails; nothing is touched then
   */
  public Lease take(TableLocation table, String owner) {
    LeaseAttempt attempt = store.tryAcquire(table, owner, clock.instant(), ttl);
    Lease lease = attempt.acquired().orElseThrow(() -> busy(table, attempt.heldBy().orElseThrow()));
    LOG.log(
        Level.INFO,
        "lease taken: table={0} run={1} until={2} store={3}",
        table,
        owner,
        lease.expiresAt(),
        store.describe());
    return lease;
  }

  /**
   * Runs {@code work} under {@code lease} (taken by {@link #take}) and releases it afterwards,
   * trying {@value #RELEASE_ATTEMPTS} times. The work's error, if any, is thrown with a release
   * failure suppressed in it; otherwise the release failure is returned with the result.
   */
  public <T> Held<T> hold(Lease lease, Supplier<T> work) {
    T value;
    try {
      value = work.get();
    } catch (RuntimeException | Error e) {
      release(lease).ifPresent(error -> e.addSuppressed(new IllegalStateException(error)));
      throw e;
    }
    return new Held<>(value, release(lease));
  }

  /**
   * Runs {@code work} under a lease the hand-off's sender took for {@code lease.owner()}, renewing
   * it first and releasing it afterwards (as {@link #hold} does).
   *
   * @throws company.data.compactor.error.CompactorException REFUSED when the lease is no longer
   *     held by that owner (released by a finished run, or taken over after expiry); nothing is
   *     touched then
   */
  public <T> T continuing(Lease lease, Supplier<T> work) {
    return continueHolding(lease, work).value();
  }

  /**
   * As {@link #continuing}, returning the release failure with the result, as {@link #hold} does.
   */
  public <T> Held<T> continueHolding(Lease lease, Supplier<T> work) {
    Lease renewed =
        store
            .renew(lease, clock.instant(), ttl)
            .orElseThrow(
                () ->
                    Errors.refused(
                        "run maintenance of " + lease.tableUri() + " for run " + lease.owner(),
                        "that run no longer holds the table's lease (it already finished, or the lease"
                            + " expired and another run took it). Nothing was touched; trigger a new run."));
    return hold(renewed, work);
  }

  /** Releases {@code lease}, retrying; the failure, if every attempt failed, in words. */
  private java.util.Optional<String> release(Lease lease) {
    String last = null;
    for (int attempt = 1; attempt <= RELEASE_ATTEMPTS; attempt++) {
      try {
        store.release(lease);
        LOG.log(Level.INFO, "lease released: table={0} run={1}", lease.tableUri(), lease.owner());
        return java.util.Optional.empty();
      } catch (CompactorException e) {
        last = e.getMessage();
        LOG.log(
            Level.WARNING,
            "lease release attempt {0} of {1} failed: table={2} run={3}: {4}",
            attempt,
            RELEASE_ATTEMPTS,
            lease.tableUri(),
            lease.owner(),
            last);
        pause(Duration.ofMillis(100L << attempt));
      }
    }
    String error =
        "the lease of "
            + lease.tableUri()
            + " could not be released after "
            + RELEASE_ATTEMPTS
            + " attempts ("
            + last
            + "); it blocks other runs of the table until it expires at "
            + lease.expiresAt()
            + " (store "
            + store.describe()
            + ")";
    LOG.log(Level.WARNING, "lease not released: run={0}: {1}", lease.owner(), error);
    return java.util.Optional.of(error);
  }

  private static void pause(Duration wait) {
    try {
      Thread.sleep(wait.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The error for a table another run holds. */
  public static CompactorException busy(TableLocation table, Lease holder) {
    return Errors.refused(
        "maintain " + table,
        "run "
            + holder.owner()
            + " holds the table's lease until "
            + holder.expiresAt()
            + " (taken "
            + holder.acquiredAt()
            + "). Nothing was touched; try again after that run"
            + " finishes.");
  }
}
