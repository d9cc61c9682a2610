package company.data.compactor.lease;

import java.time.Instant;
import java.util.Objects;

/**
 * The right of one run to maintain one table until {@code expiresAt}. A lease past its expiry may
 * be taken by another run, so the holder renews it before long work.
 *
 * @param key the table's {@link company.data.compactor.model.TableKeys#compactionKey key}
 * @param tableUri the normalised table URI (for messages)
 * @param owner the run id holding the lease
 * @param acquiredAt when the owner first took it
 * @param expiresAt when others may take it
 */
public record Lease(
    String key, String tableUri, String owner, Instant acquiredAt, Instant expiresAt) {

  public Lease {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(tableUri, "tableUri");
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(acquiredAt, "acquiredAt");
    Objects.requireNonNull(expiresAt, "expiresAt");
  }

  /** Whether another run may take this lease at {@code now}. */
  public boolean hasExpiredAt(Instant now) {
    return !now.isBefore(expiresAt);
  }
}
