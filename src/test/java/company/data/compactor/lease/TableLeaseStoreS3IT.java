package company.data.compactor.lease;

import company.data.compactor.model.TableLocation;
import company.data.compactor.storage.s3.S3Storage;
import company.data.compactor.testing.S3ProxyServer;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The lease contract for leases kept with the table on S3 (S3Proxy on loopback, whose conditional
 * PUT answers 412 to the loser), racing threads included.
 */
class TableLeaseStoreS3IT extends LeaseStoreContract {

  private static S3Client client;
  private static String bucket;

  @TempDir Path uploads;

  @BeforeAll
  static void server() {
    S3ProxyServer server = S3ProxyServer.shared();
    client = server.client();
    bucket = server.newBucket();
  }

  @AfterAll
  static void close() {
    client.close();
  }

  @Override
  protected LeaseStore newStore() {
    return new TableLeaseStore(location -> new S3Storage(client, uploads));
  }

  @Override
  protected TableLocation table() {
    return TableLocation.parse("s3://" + bucket + "/tables/" + UUID.randomUUID(), Path.of("/"));
  }
}
