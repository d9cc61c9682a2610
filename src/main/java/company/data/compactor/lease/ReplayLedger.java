package company.data.compactor.lease;

import java.time.Instant;

/**
 * Signed webhook requests already received, each remembered until its signature would be refused as
 * stale anyway, so a captured request cannot be replayed inside the signature window. Kept beside
 * the leases: items {@code replay#<digest>} with a TTL in the DynamoDB lease table in AWS, files
 * under the work directory locally. Failures of the store itself are {@link
 * company.data.compactor.error.CompactorException}s of kind OPERATION_FAILED.
 */
public interface ReplayLedger {

  /** The prefix of every ledger key, so ledger items never collide with lease items. */
  String KEY_PREFIX = "replay#";

  /**
   * Records {@code digest} until {@code forgetAt}, atomically across processes.
   *
   * @param digest hex digest of what identifies one signed request (its signature)
   * @param now the current time; a record that expired by then counts as absent
   * @param forgetAt when the record may be forgotten
   * @return true when the digest was not recorded (or its record had expired): the first use; false
   *     for a replay
   */
  boolean recordFirstUse(String digest, Instant now, Instant forgetAt);
}
