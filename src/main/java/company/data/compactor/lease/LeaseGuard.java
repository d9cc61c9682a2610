package company.data.compactor.lease;

/**
 * The question a run asks before each commit: does it still hold its table's lease? A run whose
 * lease was taken over (it expired and another run took it) must not commit: its files are
 * cleanable and the run stops (fencing). Implemented by {@link Leases} around a held lease.
 */
public interface LeaseGuard {

  /** For work that holds no lease of its own (tests, read-only commands): always held. */
  LeaseGuard UNGUARDED = () -> {};

  /**
   * Returns when the lease is still this run's.
   *
   * @throws company.data.compactor.error.CompactorException REFUSED saying who took the lease, or
   *     that it could not be confirmed (a store failure counts as lost: committing unconfirmed is
   *     what fencing exists to prevent)
   */
  void assertHeld();
}
