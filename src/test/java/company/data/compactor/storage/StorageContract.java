package company.data.compactor.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.FileNotFoundException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * What every {@link Storage} must do; run against each implementation (local now, S3 next) by
 * subclasses that supply an empty root.
 */
public abstract class StorageContract {

  /** The storage under test. */
  protected abstract Storage storage();

  /** An empty directory (prefix) to work under, without a trailing slash. */
  protected abstract String root();

  private void write(String path, String content) throws Exception {
    try (OutputStream out = storage().create(path)) {
      out.write(content.getBytes(StandardCharsets.UTF_8));
    }
  }

  private String read(String path, long offset) throws Exception {
    try (InputStream in = storage().openFrom(path, offset)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void createThenRead_roundTripsAndReadsFromAnOffset() throws Exception {
    write(root() + "/a/b.txt", "hello world");

    assertThat(read(root() + "/a/b.txt", 0)).isEqualTo("hello world");
    assertThat(read(root() + "/a/b.txt", 6)).isEqualTo("world");
    assertThat(storage().stat(root() + "/a/b.txt").sizeBytes()).isEqualTo(11);
  }

  @Test
  void create_replacesAnExistingFile() throws Exception {
    write(root() + "/f", "old content");
    write(root() + "/f", "new");

    assertThat(read(root() + "/f", 0)).isEqualTo("new");
  }

  @Test
  void publishFile_writesTheLocalFileWhole_replacesAnExistingOne_andConsumesIt() throws Exception {
    java.nio.file.Path local = java.nio.file.Files.createTempFile("publish", ".parquet");
    byte[] content = new byte[300_000];
    new java.util.Random(7).nextBytes(content);
    java.nio.file.Files.write(local, content);
    write(root() + "/p=1/out.parquet", "old content");

    storage().publishFile(local, root() + "/p=1/out.parquet");

    try (InputStream in = storage().openFrom(root() + "/p=1/out.parquet", 0)) {
      assertThat(in.readAllBytes()).isEqualTo(content);
    }
    assertThat(local).doesNotExist();
  }

  @Test
  void publishFile_ofAMissingFile_failsAndWritesNothing() throws Exception {
    java.nio.file.Path gone = java.nio.file.Files.createTempFile("publish", ".parquet");
    java.nio.file.Files.delete(gone);

    assertThatThrownBy(() -> storage().publishFile(gone, root() + "/q/out.parquet"))
        .isInstanceOf(java.io.IOException.class);
    assertThatThrownBy(() -> storage().stat(root() + "/q/out.parquet"))
        .isInstanceOf(FileNotFoundException.class);
  }

  @Test
  void missingFiles_throwFileNotFoundException() {
    assertThatThrownBy(() -> storage().stat(root() + "/missing"))
        .isInstanceOf(FileNotFoundException.class);
    assertThatThrownBy(() -> storage().openFrom(root() + "/missing", 0))
        .isInstanceOf(FileNotFoundException.class);
  }

  @Test
  void listFrom_returnsSiblingsAtOrAfterTheName_sortedByName_withoutSubdirectories()
      throws Exception {
    for (String name : List.of("00002.json", "00000.json", "00001.json", "00001.crc", "_last")) {
      write(root() + "/log/" + name, name);
    }
    write(root() + "/log/sub/00003.json", "nested");

    assertThat(storage().listFrom(root() + "/log/00001").stream().map(StoredObject::name))
        .containsExactly("00001.crc", "00001.json", "00002.json", "_last");
  }

  @Test
  void listFrom_missingDirectory_throwsFileNotFoundException() {
    assertThatThrownBy(() -> storage().listFrom(root() + "/nowhere/0"))
        .isInstanceOf(FileNotFoundException.class);
  }

  @Test
  void listRecursively_findsFilesAtAnyDepth_andAMissingPrefixIsEmpty() throws Exception {
    write(root() + "/t/p=1/a.parquet", "a");
    write(root() + "/t/p=2/b.parquet", "bb");
    write(root() + "/t/_delta_log/00000.json", "{}");

    assertThat(storage().listRecursively(root() + "/t").stream().map(StoredObject::path))
        .containsExactly(
            root() + "/t/_delta_log/00000.json",
            root() + "/t/p=1/a.parquet",
            root() + "/t/p=2/b.parquet");
    assertThat(storage().listRecursively(root() + "/none")).isEmpty();
  }

  @Test
  void putIfAbsent_writesOnce_andKeepsTheFirstContent() throws Exception {
    String path = root() + "/_delta_log/00000000000000000001.json";

    assertThat(storage().putIfAbsent(path, "first".getBytes(StandardCharsets.UTF_8))).isTrue();
    assertThat(storage().putIfAbsent(path, "second".getBytes(StandardCharsets.UTF_8))).isFalse();
    assertThat(read(path, 0)).isEqualTo("first");
  }

  @Test
  void putIfAbsent_racingWriters_exactlyOneWins() throws Exception {
    String path = root() + "/_delta_log/00000000000000000002.json";
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Callable<Boolean>> writers = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        byte[] content = ("writer " + i).getBytes(StandardCharsets.UTF_8);
        writers.add(() -> storage().putIfAbsent(path, content));
      }
      int winners = 0;
      for (Future<Boolean> result : pool.invokeAll(writers)) {
        winners += result.get() ? 1 : 0;
      }
      assertThat(winners).isEqualTo(1);
      assertThat(read(path, 0)).startsWith("writer ");
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void deleteAll_deletesAndCountsAlreadyMissingFilesAsDeleted() throws Exception {
    write(root() + "/d/1", "1");
    write(root() + "/d/2", "2");

    int deleted =
        storage().deleteAll(List.of(root() + "/d/1", root() + "/d/2", root() + "/d/never"));

    assertThat(deleted).isEqualTo(3);
    assertThat(storage().listRecursively(root() + "/d")).isEmpty();
  }

  @Test
  void realPath_ofAPlainFileOrOneNotWrittenYet_isThePathItself() throws Exception {
    write(root() + "/t/a.parquet", "a");
    assertThat(storage().realPath(root() + "/t/a.parquet")).isEqualTo(root() + "/t/a.parquet");
    assertThat(storage().realPath(root() + "/t/p=1/new.parquet"))
        .isEqualTo(root() + "/t/p=1/new.parquet");
  }
}
