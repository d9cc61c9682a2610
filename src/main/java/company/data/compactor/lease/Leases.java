package company.data.compactor.lease;

import company.data.compactor.error.CompactorException;
import company.data.compactor.error.Errors;
import company.data.compactor.model.TableLocation;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The one lease helper every entry point runs maintenance under: take the table's lease (or
 * continue the one a webhook took), keep it alive with a heartbeat while the work lasts, let the
 * work ask before each commit whether it still holds it ({@link LeaseGuard}), and release it
 * afterwards, reporting a release that failed instead of failing the finished work.
 */
public final class Leases {

  private static final System.Logger LOG = System.getLogger(Leases.class.getName());

  /** Leases outlive the Lambda timeout (15 minutes) so a running invocation never loses one. */
  public static final Duration DEFAULT_TTL = Duration.ofMinutes(20);

  /** The heartbeat renews a held lease this many times per TTL. */
  public static final int RENEWALS_PER_TTL = 3;

  /**
   * Attempts to release a lease before the failure is reported (the store's client retries each
   * too).
   */
  public static final int RELEASE_ATTEMPTS = 3;

  private final LeaseStore store;
  private final Clock clock;
  private final Duration ttl;

  /**
   * @param ttl how long a lease lasts without renewal; the heartbeat renews it every {@code ttl /
   *     3}, so a run may last longer
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
   * What {@link #hold} returns: the work's result; when the lease could not be released, why and
   * until when it blocks the table; when the run lost the lease while it worked, how.
   */
  public record Held<T>(T value, Optional<String> releaseError, Optional<String> lost) {}

  /**
   * Takes the table's lease for {@code owner}.
   *
   * @throws CompactorException REFUSED naming the holder when another run holds the table;
   *     OPERATION_FAILED when the store fails; nothing is touched then
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
   * Renews a lease the hand-off's sender took for {@code lease.owner()}, so the run can go on under
   * it.
   *
   * @throws CompactorException REFUSED when the lease is no longer held by that owner (released by
   *     a finished run, or taken over after expiry); nothing is touched then
   */
  public Lease resume(Lease lease) {
    return store
        .renew(lease, clock.instant(), ttl)
        .orElseThrow(
            () ->
                Errors.refused(
                    "run maintenance of " + lease.tableUri() + " for run " + lease.owner(),
                    "that run no longer holds the table's lease (it already finished, or the lease"
                        + " expired and another run took it). Nothing was touched; trigger a new run."));
  }

  /**
   * Runs {@code work} under {@code lease} (from {@link #take} or {@link #resume}): a heartbeat
   * renews the lease every {@code ttl / 3} while the work lasts, the work gets a {@link LeaseGuard}
   * to ask before each commit, and the lease is released afterwards, trying {@value
   * #RELEASE_ATTEMPTS} times. The work's error, if any, is thrown with a release failure suppressed
   * in it; otherwise the release failure is returned with the result.
   */
  public <T> Held<T> hold(Lease lease, Function<LeaseGuard, T> work) {
    return hold(lease, OnExit.RELEASE, work);
  }

  /** What {@link #hold(Lease, OnExit, Function)} does with the lease once the work is done. */
  public enum OnExit {
    /** Release it: the run is over. */
    RELEASE,
    /**
     * Keep it for the rest of the run: a fan-out worker shares its run's lease with the other
     * workers and the Finalize task, which releases it. It expires on its own if nobody does.
     */
    KEEP
  }

  /**
   * As {@link #hold(Lease, Function)}; with {@link OnExit#KEEP} the lease is renewed and checked
   * before each commit exactly the same (fencing is unchanged), but not released afterwards, and
   * {@link Held#releaseError()} is empty.
   */
  public <T> Held<T> hold(Lease lease, OnExit onExit, Function<LeaseGuard, T> work) {
    if (onExit == OnExit.KEEP) {
      Heartbeat heartbeat = new Heartbeat(lease);
      try {
        T value = work.apply(heartbeat);
        return new Held<>(value, Optional.empty(), Optional.ofNullable(heartbeat.lost));
      } finally {
        heartbeat.stop();
      }
    }
    T value;
    Heartbeat heartbeat = new Heartbeat(lease);
    try {
      value = work.apply(heartbeat);
    } catch (RuntimeException | Error e) {
      heartbeat.stop();
      release(heartbeat.current())
          .ifPresent(error -> e.addSuppressed(new IllegalStateException(error)));
      throw e;
    }
    heartbeat.stop();
    // Released even when lost: a check that failed may have been the store's, and releasing a
    // lease another run holds does nothing.
    return new Held<>(value, release(heartbeat.current()), Optional.ofNullable(heartbeat.lost));
  }

  /**
   * Renews the held lease in the background and answers {@link LeaseGuard#assertHeld} from the
   * store: the lease is lost once a renewal finds another owner, or once a check finds it is no
   * longer this run's.
   */
  private final class Heartbeat implements LeaseGuard {
    private final ScheduledExecutorService timer;
    private volatile Lease current;
    private volatile String lost;

    Heartbeat(Lease lease) {
      this.current = lease;
      this.timer =
          Executors.newSingleThreadScheduledExecutor(
              task -> {
                Thread thread = new Thread(task, "lease-heartbeat-" + lease.owner());
                thread.setDaemon(true);
                return thread;
              });
      long period = Math.max(1, ttl.toMillis() / RENEWALS_PER_TTL);
      timer.scheduleAtFixedRate(this::renew, period, period, TimeUnit.MILLISECONDS);
    }

    Lease current() {
      return current;
    }

    private void renew() {
      if (lost != null) {
        return;
      }
      try {
        Optional<Lease> renewed = store.renew(current, clock.instant(), ttl);
        if (renewed.isPresent()) {
          current = renewed.get();
          LOG.log(
              Level.DEBUG,
              "lease renewed: table={0} run={1} until={2}",
              current.tableUri(),
              current.owner(),
              current.expiresAt());
        } else {
          lose("another run took the table's lease over (it is no longer run " + owner() + "'s)");
        }
      } catch (RuntimeException e) {
        // The next beat tries again; the lease stays valid until it expires.
        LOG.log(
            Level.WARNING,
            "lease renewal failed: table={0} run={1} valid until {2}: {3}",
            current.tableUri(),
            current.owner(),
            current.expiresAt(),
            e.getMessage());
      }
    }

    private String owner() {
      return current.owner();
    }

    private void lose(String why) {
      if (lost == null) {
        lost = why;
        LOG.log(
            Level.WARNING,
            "lease lost: table={0} run={1}: {2}",
            current.tableUri(),
            current.owner(),
            why);
      }
    }

    @Override
    public void assertHeld() {
      if (lost == null) {
        try {
          if (!store.holds(current, clock.instant())) {
            lose(
                "the table's lease is no longer run "
                    + owner()
                    + "'s (it expired and another run took it over, or was released)");
          }
        } catch (CompactorException e) {
          lose("the table's lease could not be confirmed: " + e.getMessage());
        }
      }
      if (lost != null) {
        throw Errors.refused(
            "commit to " + current.tableUri() + " for run " + owner(),
            lost
                + ". The run stops before its next commit (fenced); files it wrote for"
                + " uncommitted partitions are deleted, committed partitions stay.");
      }
    }

    void stop() {
      timer.shutdownNow();
      try {
        timer.awaitTermination(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Releases {@code lease}, retrying; the failure, if every attempt failed, in words. */
  private Optional<String> release(Lease lease) {
    String last = null;
    for (int attempt = 1; attempt <= RELEASE_ATTEMPTS; attempt++) {
      try {
        store.release(lease);
        LOG.log(Level.INFO, "lease released: table={0} run={1}", lease.tableUri(), lease.owner());
        return Optional.empty();
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
    return Optional.of(error);
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
