package company.data.compactor.lease;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

class FileLeaseStoreTest extends LeaseStoreContract {

  @Override
  protected LeaseStore newStore() {
    try {
      return new FileLeaseStore(Files.createTempDirectory(Path.of("target"), "leases"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
