package company.data.compactor.vacuum;

import company.data.compactor.model.TableLocation;
import company.data.compactor.storage.Storage;
import company.data.compactor.storage.s3.S3Storage;
import company.data.compactor.testing.S3ProxyServer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

/** {@link PathSpellingVacuumContract} on S3Proxy: {@code s3a://}, {@code S3://}, {@code S3A://}. */
class S3PathSpellingVacuumIT extends PathSpellingVacuumContract {

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

  @Override
  List<String> spellings(TableLocation table, String name) {
    String rest = table.uri().substring("s3://".length()) + "/" + name;
    return List.of("s3a://" + rest, "S3://" + rest, "S3A://" + rest);
  }
}
