package company.data.compactor.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
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

  private static final int FILES = 200;

  /**
   * A scratch directory as a run leaves it, its lock file made between two halves of its 200 files.
   * Where the file system lists entries in the order they were made, or newest first (tmpfs), a
   * walk in directory order reaches the lock file before the last of them. Where it lists them in
   * the order of their names' hashes (ext4), the lock file goes wherever its hash puts it: last
   * among these names on the disk this was written on, where a plain walk happens to pass.
   */
  private Path scratchWithContent() throws Exception {
    Path dir = Files.createDirectories(root.resolve("run-0f8fad5b-d9cb-469f-a165-70867728950e"));
    for (int i = 0; i < FILES / 2; i++) {
      Files.writeString(dir.resolve("f" + i + ".parquet"), "123");
    }
    Files.createFile(dir.resolve(Scratch.LOCK_FILE));
    for (int i = FILES / 2; i < FILES; i++) {
      Files.writeString(dir.resolve("f" + i + ".parquet"), "123");
    }
    Files.writeString(Files.createDirectories(dir.resolve("bin-1/out")).resolve("o.parquet"), "45");
    return dir;
  }

  private static List<Path> entries(Path dir) throws IOException {
    try (var listed = Files.list(dir)) {
      return listed.toList();
    }
  }

  @Test
  void deleteScratchTree_deletesTheLockFileAfterEverythingElse_thenTheDirectory() throws Exception {
    Path dir = scratchWithContent();
    Path lockFile = dir.resolve(Scratch.LOCK_FILE);
    List<Path> deleted = new ArrayList<>();

    long bytes =
        Scratch.deleteScratchTree(
            dir,
            path -> {
              if (path.equals(lockFile)) {
                assertThat(entries(dir))
                    .as("left when the lock file goes")
                    .containsExactly(lockFile);
              }
              deleted.add(path);
              return Files.deleteIfExists(path);
            });

    assertThat(bytes).isEqualTo(FILES * 3 + 2);
    assertThat(dir).doesNotExist();
    assertThat(deleted).hasSize(FILES + 3 + 2);
    assertThat(deleted.subList(deleted.size() - 2, deleted.size())).containsExactly(lockFile, dir);
  }

  @Test
  void aDeleteKilledPartWay_leavesTheLockFile_soTheNextSweepStillTakesTheDirectory()
      throws Exception {
    Path dir = scratchWithContent();
    Path lockFile = dir.resolve(Scratch.LOCK_FILE);
    // The process is killed as it is about to delete the last of the content: the delete of the
    // last entry beside the lock file fails (with the lock file deleted first, none ever is).
    Scratch.PathDeleter killedAtTheLastEntry =
        path -> {
          if (dir.equals(path.getParent())
              && !path.equals(lockFile)
              && Set.copyOf(entries(dir)).equals(Set.of(lockFile, path))) {
            throw new IOException("killed");
          }
          return Files.deleteIfExists(path);
        };

    assertThatThrownBy(() -> Scratch.deleteScratchTree(dir, killedAtTheLastEntry))
        .hasMessage("killed");

    assertThat(lockFile).as("still there, beside what is left").isRegularFile();
    assertThat(entries(dir)).hasSize(2);
    try (Scratch.AbandonedLock held = Scratch.lockIfAbandoned(dir).orElseThrow()) {
      assertThat(Scratch.deleteScratchTree(dir)).isNotNegative();
    }
    assertThat(dir).doesNotExist();
  }

  @Test
  void deleteTree_ofAMissingDirectory_deletesNothing() throws Exception {
    assertThat(Scratch.deleteTree(root.resolve("gone"))).isZero();
  }

  /** A link given as the scratch directory: the link goes, never what it leads to. */
  @Test
  void deleteScratchTree_ofALinkToSomeonesDirectory_deletesTheLinkOnly() throws Exception {
    Path someones = Files.createDirectories(root.resolve("elsewhere"));
    Files.writeString(someones.resolve("part-0.parquet"), "a user's");
    Path link =
        Files.createSymbolicLink(
            root.resolve("run-0f8fad5b-d9cb-469f-a165-70867728950e"), someones);

    Scratch.deleteScratchTree(link);

    assertThat(someones.resolve("part-0.parquet")).isRegularFile();
    assertThat(Files.exists(link, LinkOption.NOFOLLOW_LINKS)).isFalse();
  }

  /** A live run's directory replaced by a link (by whoever can write the scratch root). */
  @Test
  void close_ofAScratchWhoseDirectoryIsNowALink_deletesTheLinkOnly() throws Exception {
    Path someones = Files.createDirectories(root.resolve("elsewhere"));
    Files.writeString(someones.resolve("part-0.parquet"), "a user's");
    Scratch scratch = Scratch.create(root.resolve("scratch"));
    Files.move(scratch.dir(), root.resolve("moved-away"));
    Files.createSymbolicLink(scratch.dir(), someones);

    scratch.close();

    assertThat(someones.resolve("part-0.parquet")).isRegularFile();
  }

  /**
   * The OS lock belongs to the process, and closing any channel of the file drops it: asking in the
   * scratch's own process whether it is abandoned must not open (and close) a second channel, or
   * another process's sweep would take the live directory for abandoned.
   */
  @Test
  void askingAboutALiveScratchInItsOwnProcess_leavesItLockedForOtherProcesses() throws Exception {
    Path probe =
        Files.writeString(
            root.resolve("TryLock.java"),
            "public class TryLock { public static void main(String[] a) throws Exception {"
                + " try (var c = java.nio.channels.FileChannel.open(java.nio.file.Path.of(a[0]),"
                + " java.nio.file.StandardOpenOption.WRITE)) {"
                + " System.out.print(c.tryLock() == null ? \"held\" : \"taken\"); } } }");
    String java = ProcessHandle.current().info().command().orElse("java");
    try (Scratch live = Scratch.create(root.resolve("scratch"))) {
      assertThat(Scratch.lockIfAbandoned(live.dir())).isEmpty();

      Process other =
          new ProcessBuilder(
                  java, probe.toString(), live.dir().resolve(Scratch.LOCK_FILE).toString())
              .redirectErrorStream(true)
              .start();
      String answer = new String(other.getInputStream().readAllBytes()).trim();
      other.waitFor();

      assertThat(answer).as("another process asking for the live scratch's lock").isEqualTo("held");
    }
  }
}
