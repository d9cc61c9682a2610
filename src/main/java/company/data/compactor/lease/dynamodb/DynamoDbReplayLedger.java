package company.data.compactor.lease.dynamodb;

import company.data.compactor.error.Errors;
import company.data.compactor.lease.ReplayLedger;
import java.time.Instant;
import java.util.Map;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;

/**
 * {@link ReplayLedger} as items of the DynamoDB lease table: key {@value DynamoDbLeaseStore#KEY} =
 * {@code replay#<digest>}, {@code expires_at_ms} (what the condition compares) and the table's TTL
 * attribute {@value DynamoDbLeaseStore#TTL_ATTRIBUTE} (epoch seconds), so DynamoDB deletes old
 * records. One conditional put per request: of two deliveries of one signed request, one wins.
 */
public final class DynamoDbReplayLedger implements ReplayLedger {

  private final DynamoDbClient client;
  private final String tableName;

  /** The caller owns {@code client} and closes it. */
  public DynamoDbReplayLedger(DynamoDbClient client, String tableName) {
    this.client = client;
    this.tableName = tableName;
  }

  @Override
  public boolean recordFirstUse(String digest, Instant now, Instant forgetAt) {
    try {
      client.putItem(
          b ->
              b.tableName(tableName)
                  .item(
                      Map.of(
                          DynamoDbLeaseStore.KEY,
                          AttributeValue.fromS(KEY_PREFIX + digest),
                          "expires_at_ms",
                          AttributeValue.fromN(Long.toString(forgetAt.toEpochMilli())),
                          DynamoDbLeaseStore.TTL_ATTRIBUTE,
                          AttributeValue.fromN(Long.toString(forgetAt.getEpochSecond()))))
                  .conditionExpression("attribute_not_exists(#key) OR expires_at_ms <= :now")
                  .expressionAttributeNames(Map.of("#key", DynamoDbLeaseStore.KEY))
                  .expressionAttributeValues(
                      Map.of(":now", AttributeValue.fromN(Long.toString(now.toEpochMilli())))));
      return true;
    } catch (ConditionalCheckFailedException e) {
      return false;
    } catch (SdkException e) {
      throw Errors.operationFailed(
          "recording a signed webhook request in DynamoDB table " + tableName, e);
    }
  }
}
