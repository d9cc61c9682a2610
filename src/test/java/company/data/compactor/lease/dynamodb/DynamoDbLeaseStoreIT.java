package company.data.compactor.lease.dynamodb;

import company.data.compactor.lease.LeaseStore;
import company.data.compactor.lease.LeaseStoreContract;
import company.data.compactor.testing.DynoxideServer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The lease contract against a real DynamoDB-compatible server (Dynoxide) over HTTP. */
class DynamoDbLeaseStoreIT extends LeaseStoreContract {

  private static final List<DynamoDbClient> CLIENTS = new ArrayList<>();

  @Override
  protected LeaseStore newStore() {
    DynoxideServer server = DynoxideServer.shared();
    DynamoDbClient client = server.client();
    CLIENTS.add(client);
    return new DynamoDbLeaseStore(client, server.newLeaseTable());
  }

  @AfterAll
  static void closeClients() {
    CLIENTS.forEach(DynamoDbClient::close);
  }
}
