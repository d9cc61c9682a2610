package company.data.compactor.vacuum;

import company.data.compactor.model.TableLocation;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.storage.Storage;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PathSpellingVacuumContract} on local disk: {@code FILE:/x}, {@code file:///x}, {@code
 * File:/x}.
 */
class LocalPathSpellingVacuumIT extends PathSpellingVacuumContract {

  @TempDir Path dir;
  private final AtomicInteger next = new AtomicInteger();
  private final LocalStorage storage = new LocalStorage();

  @Override
  Storage storage() {
    return storage;
  }

  @Override
  TableLocation newTable() {
    return TableLocation.parse(dir.resolve("t" + next.incrementAndGet()).toString(), dir);
  }

  @Override
  List<String> spellings(TableLocation table, String name) {
    String path = table.localPath().resolve(name).toString();
    return List.of("FILE:" + path, "file://" + path, "File:" + path);
  }
}
