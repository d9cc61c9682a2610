package company.data.compactor.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalStorageTest extends StorageContract {

  @TempDir Path dir;
  private final LocalStorage storage = new LocalStorage();

  @Override
  protected Storage storage() {
    return storage;
  }

  @Override
  protected String root() {
    return LocalStorage.toStoragePath(dir);
  }

  @Test
  void realPath_followsLinkedFilesAndDirectories_andResolvesAFileNotWrittenYetThroughItsDirectory()
      throws Exception {
    Path outside = Files.createDirectories(dir.resolve("outside"));
    Path victim = Files.writeString(outside.resolve("victim.parquet"), "x");
    Path table = Files.createDirectories(dir.resolve("t"));
    Files.createSymbolicLink(table.resolve("link.parquet"), victim);
    Files.createSymbolicLink(table.resolve("p=b"), outside);
    String real = LocalStorage.toStoragePath(outside.toRealPath());

    assertThat(storage.realPath(LocalStorage.toStoragePath(table.resolve("link.parquet"))))
        .isEqualTo(real + "/victim.parquet");
    assertThat(storage.realPath(LocalStorage.toStoragePath(table.resolve("p=b/victim.parquet"))))
        .isEqualTo(real + "/victim.parquet");
    assertThat(storage.realPath(LocalStorage.toStoragePath(table.resolve("p=b/new/out.parquet"))))
        .as("not written yet: resolved through its nearest existing directory")
        .isEqualTo(real + "/new/out.parquet");
  }

  @Test
  void create_isInvisibleUntilClosed() throws Exception {
    Path target = dir.resolve("part.parquet");
    try (OutputStream out = storage.create(LocalStorage.toStoragePath(target))) {
      out.write(new byte[] {1, 2, 3});
      assertThat(target).doesNotExist();
      assertThat(storage.listFrom(LocalStorage.toStoragePath(dir.resolve("a")))).isEmpty();
    }
    assertThat(Files.readAllBytes(target)).containsExactly(1, 2, 3);
  }

  @Test
  void toPath_acceptsTheFormsKernelAndUsersUse_withoutPercentDecoding() {
    assertThat(LocalStorage.toPath("file:/a/p=x%2Fy/f")).isEqualTo(Path.of("/a/p=x%2Fy/f"));
    assertThat(LocalStorage.toPath("file:///a/b")).isEqualTo(Path.of("/a/b"));
    assertThat(LocalStorage.toPath("/a/b c")).isEqualTo(Path.of("/a/b c"));
  }
}
