package company.data.compactor.telemetry.dynamodb;

import company.data.compactor.error.Errors;
import company.data.compactor.model.TableKeys;
import company.data.compactor.model.TableLocation;
import company.data.compactor.report.MaintenanceReport;
import company.data.compactor.telemetry.TelemetryRecord;
import company.data.compactor.telemetry.TelemetryStore;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * One DynamoDB item per run: partition key {@value #PARTITION_KEY} = {@code
 * delta_compaction_<slug>} of the table, sort key {@value #SORT_KEY} = {@code <evaluated_at>#<
 * execution_id>} (the time at fixed width, so it sorts), then the run's {@link TelemetryRecord}
 * (the blueprint's fields and every report field under its JSON name) with numbers as numbers and
 * per-partition detail as nested lists ({@code schema_version} included), and, when a retention is
 * set, {@value #TTL_ATTRIBUTE} (epoch seconds) for the table's TTL. Items are written with a
 * condition, so a record is never overwritten; the latest run and the history are one query each.
 *
 * <p>Writes are idempotent by execution id: when a retried PutItem (its first response lost) meets
 * the item its first attempt stored, the condition fails; the item is then read back, and an item
 * of this execution id counts as recorded.
 */
public final class DynamoDbTelemetrySink implements TelemetryStore {

  public static final String PARTITION_KEY = "table_key";
  public static final String SORT_KEY = "run_key";
  public static final String TTL_ATTRIBUTE = "expires_at";

  private final DynamoDbClient client;
  private final String tableName;
  private final Optional<Duration> retention;

  /**
   * @param retention how long items live (their TTL), or empty for no TTL attribute
   */
  public DynamoDbTelemetrySink(
      DynamoDbClient client, String tableName, Optional<Duration> retention) {
    this.client = client;
    this.tableName = tableName;
    this.retention = retention;
  }

  @Override
  public void record(MaintenanceReport report) {
    TableLocation table = new TableLocation(report.tableUri());
    Map<String, AttributeValue> item = new LinkedHashMap<>();
    item.put(PARTITION_KEY, AttributeValue.fromS(TableKeys.compactionKey(table)));
    item.put(SORT_KEY, AttributeValue.fromS(runKey(report)));
    TelemetryRecord.of(report).forEach((k, v) -> item.put(k, AttributeValues.of(v)));
    retention.ifPresent(
        r ->
            item.put(
                TTL_ATTRIBUTE,
                AttributeValue.fromN(
                    Long.toString(Instant.parse(report.evaluatedAt()).plus(r).getEpochSecond()))));
    try {
      client.putItem(
          b ->
              b.tableName(tableName)
                  .item(item)
                  .conditionExpression("attribute_not_exists(#sk)")
                  .expressionAttributeNames(Map.of("#sk", SORT_KEY)));
    } catch (ConditionalCheckFailedException e) {
      if (!isOurs(item, report.executionId())) {
        throw Errors.operationFailed(
            "recording run "
                + report.executionId()
                + " of "
                + table
                + " in DynamoDB table "
                + tableName,
            new IllegalStateException("a record of another run has this key; it was kept"));
      }
    } catch (SdkException e) {
      throw Errors.operationFailed(
          "recording run "
              + report.executionId()
              + " of "
              + table
              + " in DynamoDB table "
              + tableName,
          e);
    }
  }

  /** Whether the stored item at {@code item}'s key was written for {@code executionId}. */
  private boolean isOurs(Map<String, AttributeValue> item, String executionId) {
    Map<String, AttributeValue> key =
        Map.of(PARTITION_KEY, item.get(PARTITION_KEY), SORT_KEY, item.get(SORT_KEY));
    Map<String, AttributeValue> stored =
        client.getItem(b -> b.tableName(tableName).key(key).consistentRead(true)).item();
    return stored != null
        && stored.containsKey("execution_id")
        && executionId.equals(stored.get("execution_id").s());
  }

  /** Fixed-width UTC time, so keys sort by time as strings, then the execution id. */
  static String runKey(MaintenanceReport report) {
    return SORTABLE_TIME.format(Instant.parse(report.evaluatedAt())) + "#" + report.executionId();
  }

  private static final DateTimeFormatter SORTABLE_TIME =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSSSS'Z'").withZone(ZoneOffset.UTC);

  @Override
  public List<Map<String, Object>> recent(TableLocation table, int limit) {
    try {
      QueryResponse response =
          client.query(
              b ->
                  b.tableName(tableName)
                      .keyConditionExpression("#pk = :pk")
                      .expressionAttributeNames(Map.of("#pk", PARTITION_KEY))
                      .expressionAttributeValues(
                          Map.of(":pk", AttributeValue.fromS(TableKeys.compactionKey(table))))
                      .scanIndexForward(false)
                      .limit(limit));
      return response.items().stream().map(DynamoDbTelemetrySink::record).toList();
    } catch (SdkException e) {
      throw Errors.operationFailed(
          "reading the history of " + table + " from DynamoDB table " + tableName, e);
    }
  }

  private static Map<String, Object> record(Map<String, AttributeValue> item) {
    Map<String, Object> record = new LinkedHashMap<>();
    item.forEach(
        (k, v) -> {
          if (!k.equals(PARTITION_KEY) && !k.equals(SORT_KEY) && !k.equals(TTL_ATTRIBUTE)) {
            record.put(k, AttributeValues.value(v));
          }
        });
    return record;
  }

  @Override
  public String describe() {
    return "dynamodb:" + tableName;
  }
}
