package company.data.compactor.sweep;

import company.data.compactor.storage.Storage;
import company.data.compactor.storage.s3.S3Storage;
import company.data.compactor.testing.S3ProxyServer;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

/** The temporary-object sweep on a real S3 API (S3Proxy on loopback). */
class S3TemporaryObjectSweepIT extends TemporaryObjectSweepContract {

  private static S3Client client;
  private static String bucket;

  @TempDir Path dir;
  private final String table = "t-" + UUID.randomUUID();

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
  protected Storage storage() {
    return new S3Storage(client, dir.resolve("uploads"));
  }

  @Override
  protected String root() {
    return "s3://" + bucket + "/" + table;
  }

  @Override
  protected Path scratchRoot() {
    return dir.resolve("scratch");
  }
}
