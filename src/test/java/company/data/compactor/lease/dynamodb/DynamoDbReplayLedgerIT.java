package company.data.compactor.lease.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.testing.DynoxideServer;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Signed-request records in the lease table of a real DynamoDB-compatible server (Dynoxide). */
class DynamoDbReplayLedgerIT {

  private static final Instant NOW = Instant.parse("2026-11-30T02:00:00Z");
  private static final String DIGEST = "0123456789abcdef0123456789abcdef";

  @Test
  void aDigestIsFirstUsedOnce_untilItsRecordExpires_andCarriesTheTableTtl() {
    DynoxideServer server = DynoxideServer.shared();
    try (DynamoDbClient client = server.client()) {
      String table = server.newLeaseTable();
      DynamoDbReplayLedger ledger = new DynamoDbReplayLedger(client, table);

      assertThat(ledger.recordFirstUse(DIGEST, NOW, NOW.plusSeconds(300))).isTrue();
      assertThat(ledger.recordFirstUse(DIGEST, NOW.plusSeconds(299), NOW.plusSeconds(600)))
          .isFalse();
      Map<String, AttributeValue> item =
          client
              .getItem(
                  b ->
                      b.tableName(table)
                          .key(Map.of("lease_key", AttributeValue.fromS("replay#" + DIGEST))))
              .item();
      assertThat(item.get("expires_at").n())
          .isEqualTo(Long.toString(NOW.plusSeconds(300).getEpochSecond()));
      assertThat(ledger.recordFirstUse(DIGEST, NOW.plusSeconds(300), NOW.plusSeconds(600)))
          .as("expired records are forgotten even before DynamoDB's TTL deletes them")
          .isTrue();
    }
  }
}
