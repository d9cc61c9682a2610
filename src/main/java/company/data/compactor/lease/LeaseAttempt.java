package company.data.compactor.lease;

import java.util.Optional;

/**
 * What {@link LeaseStore#tryAcquire} found: the lease now held by the caller, or the live lease of
 * the run that holds the table.
 *
 * @param acquired the caller's lease, when it got one
 * @param heldBy the other run's lease, when the caller did not
 */
public record LeaseAttempt(Optional<Lease> acquired, Optional<Lease> heldBy) {

  /** The caller holds {@code lease}. */
  public static LeaseAttempt acquired(Lease lease) {
    return new LeaseAttempt(Optional.of(lease), Optional.empty());
  }

  /** Another run holds {@code holder}. */
  public static LeaseAttempt heldBy(Lease holder) {
    return new LeaseAttempt(Optional.empty(), Optional.of(holder));
  }

  /** Whether the caller got the lease. */
  public boolean succeeded() {
    return acquired.isPresent();
  }
}
