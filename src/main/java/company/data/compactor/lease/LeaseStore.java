package company.data.compactor.lease;

import company.data.compactor.model.TableLocation;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Per-table leases, so that no two runs maintain one table at once. Implementations are atomic
 * across processes and machines: a DynamoDB conditional write ({@code COMPACTOR_LEASE_TABLE}), or
 * conditional creates in the table's own storage ({@link TableLeaseStore}). Failures of the store
 * itself are {@link company.data.compactor.error.CompactorException}s of kind OPERATION_FAILED.
 */
public interface LeaseStore {

  /**
   * Whether taking a lease writes at the table's own location (its records beside the table), so
   * that a run must know the table is there before it takes one: at a mistyped path the record
   * would be the one file written. A store elsewhere (DynamoDB) writes nothing at the table.
   */
  default boolean writesWithTable() {
    return false;
  }

  /**
   * Takes the table's lease for {@code owner} until {@code now + ttl}, unless another owner holds
   * an unexpired one. An expired lease is taken over.
   */
  LeaseAttempt tryAcquire(TableLocation table, String owner, Instant now, Duration ttl);

  /**
   * Extends {@code lease} to {@code now + ttl} if its owner still holds it (even past expiry, as
   * long as nobody took it over); empty when the lease was released or taken by another run.
   */
  Optional<Lease> renew(Lease lease, Instant now, Duration ttl);

  /**
   * Whether {@code lease}'s owner still holds its table's lease at {@code now}: the store's current
   * lease of the table is that owner's, not released and not expired. What fencing asks before each
   * commit.
   */
  boolean holds(Lease lease, Instant now);

  /** Gives the lease up if its owner still holds it; does nothing otherwise. */
  void release(Lease lease);

  /** Where leases are kept, for logs and messages (never a secret). */
  String describe();
}
