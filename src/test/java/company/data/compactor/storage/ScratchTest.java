package company.data.compactor.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScratchTest {

  @TempDir Path root;

  @Test
  void anOpenScratch_holdsItsLock_soItIsNeverTakenForAbandoned() throws Exception {
    try (Scratch scratch = Scratch.create(root)) {
      assertThat(scratch.dir().getFileName().toString()).startsWith("run-");
      assertThat(scratch.dir().resolve(Scratch.LOCK_FILE)).isRegularFile();

      assertThat(Scratch.lockIfAbandoned(scratch.dir())).isEmpty();
      assertThat(Scratch.lockIfAbandoned(scratch.dir())).as("asked twice").isEmpty();
      assertThat(scratch.dir()).isDirectory();
    }
  }

  @Test
  void close_deletesTheDirectoryAndItsLock() throws Exception {
    Path dir;
    try (Scratch scratch = Scratch.create(root)) {
      dir = scratch.dir();
      Files.writeString(scratch.newDirectory("bin-1").resolve("in.parquet"), "12345");
    }

    assertThat(dir).doesNotExist();
    assertThat(Scratch.lockIfAbandoned(dir)).as("nothing to lock").isEmpty();
    assertThat(root).isEmptyDirectory();
  }

  @Test
  void aScratchDirectoryNobodyHolds_isLockedForTheSweep_evenWithoutALockFile() throws Exception {
    Path leftover = Files.createDirectories(root.resolve("run-killed"));
    Files.writeString(leftover.resolve("out.parquet"), "1234567");

    Optional<Scratch.AbandonedLock> lock = Scratch.lockIfAbandoned(leftover);

    assertThat(lock).isPresent();
    try (Scratch.AbandonedLock held = lock.get()) {
      assertThat(Scratch.lockIfAbandoned(leftover)).as("held by the sweep now").isEmpty();
      assertThat(Scratch.deleteTree(leftover)).as("bytes of the regular files").isEqualTo(7);
    }
    assertThat(leftover).doesNotExist();
  }

  @Test
  void deleteTree_ofAMissingDirectory_deletesNothing() throws Exception {
    assertThat(Scratch.deleteTree(root.resolve("gone"))).isZero();
  }
}
