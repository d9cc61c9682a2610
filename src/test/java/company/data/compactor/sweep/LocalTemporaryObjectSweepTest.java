package company.data.compactor.sweep;

import company.data.compactor.storage.LocalStorage;
import company.data.compactor.storage.Storage;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class LocalTemporaryObjectSweepTest extends TemporaryObjectSweepContract {

  @TempDir Path dir;

  @Override
  protected Storage storage() {
    return new LocalStorage();
  }

  @Override
  protected String root() {
    return LocalStorage.toStoragePath(dir.resolve("table"));
  }

  @Override
  protected Path scratchRoot() {
    return dir.resolve("scratch");
  }
}
