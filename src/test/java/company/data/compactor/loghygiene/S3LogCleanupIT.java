package company.data.compactor.loghygiene;

import company.data.compactor.model.TableLocation;
import company.data.compactor.storage.Storage;
import company.data.compactor.storage.s3.S3Storage;
import company.data.compactor.testing.S3ProxyServer;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

/** {@link LogCleanupContract} on S3Proxy (object times cannot be set: the clock moves instead). */
class S3LogCleanupIT extends LogCleanupContract {

  @TempDir Path dir;
  private final S3Client client = S3ProxyServer.shared().client();
  private S3Storage storage;

  @AfterEach
  void close() {
    client.close();
  }

  @Override
  Storage storage() {
    if (storage == null) {
      storage = new S3Storage(client, dir.resolve("uploads"));
    }
    return storage;
  }

  @Override
  TableLocation newTable() {
    return TableLocation.parse("s3://" + S3ProxyServer.shared().newBucket() + "/t", dir);
  }
}
