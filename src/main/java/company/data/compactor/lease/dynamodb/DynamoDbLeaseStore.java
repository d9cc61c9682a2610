package company.data.compactor.lease.dynamodb;

import company.data.compactor.error.Errors;
import company.data.compactor.lease.Lease;
import company.data.compactor.lease.LeaseAttempt;
import company.data.compactor.lease.LeaseStore;
import company.data.compactor.model.TableKeys;
import company.data.compactor.model.TableLocation;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;

/**
 * Leases as items of a DynamoDB table keyed by {@value #KEY} (string), one per table: {@code
 * table_uri}, {@code owner}, {@code acquired_at} (ISO-8601), {@code expires_at_ms} (epoch
 * milliseconds, what the conditions compare) and {@code expires_at} (epoch seconds, the table's TTL
 * attribute, so DynamoDB eventually deletes abandoned leases). Every change is one conditional
 * write, so two runs racing for a table get one winner.
 */
public final class DynamoDbLeaseStore implements LeaseStore {

  /** The table's partition key attribute. */
  public static final String KEY = "lease_key";

  /** The table's TTL attribute (epoch seconds). */
  public static final String TTL_ATTRIBUTE = "expires_at";

  private static final int ACQUIRE_ATTEMPTS = 3;

  private final DynamoDbClient client;
  private final String tableName;

  /** The caller owns {@code client} and closes it. */
  public DynamoDbLeaseStore(DynamoDbClient client, String tableName) {
    this.client = client;
    this.tableName = tableName;
  }

  @Override
  public LeaseAttempt tryAcquire(TableLocation table, String owner, Instant now, Duration ttl) {
    String key = TableKeys.compactionKey(table);
    Lease lease = new Lease(key, table.uri(), owner, now, now.plus(ttl));
    try {
      for (int attempt = 1; ; attempt++) {
        try {
          client.putItem(
              b ->
                  b.tableName(tableName)
                      .item(item(lease))
                      .conditionExpression(
                          "attribute_not_exists(#key) OR expires_at_ms <= :now OR #owner = :owner")
                      .expressionAttributeNames(Map.of("#key", KEY, "#owner", "owner"))
                      .expressionAttributeValues(
                          Map.of(":now", number(now.toEpochMilli()), ":owner", string(owner))));
          return LeaseAttempt.acquired(lease);
        } catch (ConditionalCheckFailedException e) {
          Optional<Lease> holder = read(key);
          // The holder may have released between our write and our read: try again.
          if (holder.isPresent() || attempt == ACQUIRE_ATTEMPTS) {
            return holder.map(LeaseAttempt::heldBy).orElseThrow(() -> e);
          }
        }
      }
    } catch (SdkException e) {
      throw Errors.operationFailed(
          "taking the lease of " + table + " in DynamoDB table " + tableName, e);
    }
  }

  @Override
  public Optional<Lease> renew(Lease lease, Instant now, Duration ttl) {
    Instant expires = now.plus(ttl);
    try {
      client.updateItem(
          b ->
              b.tableName(tableName)
                  .key(Map.of(KEY, string(lease.key())))
                  .updateExpression("SET expires_at_ms = :ms, expires_at = :s")
                  .conditionExpression("#owner = :owner")
                  .expressionAttributeNames(Map.of("#owner", "owner"))
                  .expressionAttributeValues(
                      Map.of(
                          ":ms", number(expires.toEpochMilli()),
                          ":s", number(expires.getEpochSecond()),
                          ":owner", string(lease.owner()))));
      return Optional.of(
          new Lease(lease.key(), lease.tableUri(), lease.owner(), lease.acquiredAt(), expires));
    } catch (ConditionalCheckFailedException e) {
      return Optional.empty();
    } catch (SdkException e) {
      throw Errors.operationFailed(
          "renewing the lease of " + lease.tableUri() + " in DynamoDB table " + tableName, e);
    }
  }

  @Override
  public boolean holds(Lease lease, Instant now) {
    try {
      return read(lease.key())
          .filter(current -> current.owner().equals(lease.owner()))
          .filter(current -> !current.hasExpiredAt(now))
          .isPresent();
    } catch (SdkException e) {
      throw Errors.operationFailed(
          "checking the lease of " + lease.tableUri() + " in DynamoDB table " + tableName, e);
    }
  }

  @Override
  public void release(Lease lease) {
    try {
      client.deleteItem(
          b ->
              b.tableName(tableName)
                  .key(Map.of(KEY, string(lease.key())))
                  .conditionExpression("#owner = :owner")
                  .expressionAttributeNames(Map.of("#owner", "owner"))
                  .expressionAttributeValues(Map.of(":owner", string(lease.owner()))));
    } catch (ConditionalCheckFailedException e) {
      // Taken over after expiry, or already released: not ours to delete.
    } catch (SdkException e) {
      throw Errors.operationFailed(
          "releasing the lease of " + lease.tableUri() + " in DynamoDB table " + tableName, e);
    }
  }

  @Override
  public String describe() {
    return "dynamodb:" + tableName;
  }

  private Optional<Lease> read(String key) {
    Map<String, AttributeValue> item =
        client
            .getItem(b -> b.tableName(tableName).key(Map.of(KEY, string(key))).consistentRead(true))
            .item();
    if (item == null || item.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new Lease(
            key,
            item.get("table_uri").s(),
            item.get("owner").s(),
            Instant.parse(item.get("acquired_at").s()),
            Instant.ofEpochMilli(Long.parseLong(item.get("expires_at_ms").n()))));
  }

  private static Map<String, AttributeValue> item(Lease lease) {
    return Map.of(
        KEY,
        string(lease.key()),
        "table_uri",
        string(lease.tableUri()),
        "owner",
        string(lease.owner()),
        "acquired_at",
        string(lease.acquiredAt().toString()),
        "expires_at_ms",
        number(lease.expiresAt().toEpochMilli()),
        TTL_ATTRIBUTE,
        number(lease.expiresAt().getEpochSecond()));
  }

  private static AttributeValue string(String value) {
    return AttributeValue.fromS(value);
  }

  private static AttributeValue number(long value) {
    return AttributeValue.fromN(Long.toString(value));
  }
}
