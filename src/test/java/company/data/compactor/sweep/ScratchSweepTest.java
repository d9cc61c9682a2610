package company.data.compactor.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.model.TableLocation;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.storage.Scratch;
import company.data.compactor.storage.Storage;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scratch half of the sweep on the local disk: the lock decides, then the age. */
class ScratchSweepTest {

  private static final Duration TTL = Duration.ofMinutes(20);
  private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");

  @TempDir Path work;

  private Path scratchRoot() {
    return work.resolve("scratch");
  }

  private SweepResult sweep() {
    return new Sweeper(
            new LocalStorage(),
            List.of(scratchRoot()),
            new SweepPolicy(TTL, Duration.ofHours(168)),
            Clock.fixed(NOW, ZoneOffset.UTC))
        .sweep(TableLocation.parse("table", work));
  }

  private static void age(Path dir, Instant modified) throws Exception {
    Files.setLastModifiedTime(dir, FileTime.from(modified));
  }

  /** A dead run's scratch: its lock file is there, nobody holds the lock. */
  private Path leftover(String name, Instant modified, String content) throws Exception {
    Path dir = Files.createDirectories(scratchRoot().resolve(name));
    Files.createFile(dir.resolve(Scratch.LOCK_FILE));
    Files.writeString(
        Files.createDirectories(dir.resolve("bin-1")).resolve("out.parquet"), content);
    age(dir, modified);
    return dir;
  }

  @Test
  void aDirectoryNamedLikeOursWithoutOurLockFile_stays() throws Exception {
    Path dir = Files.createDirectories(scratchRoot().resolve("run-" + UUID_WITHOUT_LOCK));
    Files.writeString(dir.resolve("notes.txt"), "a user's");
    Path logs = Files.createDirectories(scratchRoot().resolve("run-logs"));
    Files.createFile(logs.resolve(Scratch.LOCK_FILE));
    age(dir, NOW.minus(Duration.ofDays(30)));
    age(logs, NOW.minus(Duration.ofDays(30)));

    SweepResult result = sweep();

    assertThat(dir.resolve("notes.txt")).isRegularFile();
    assertThat(logs).isDirectory();
    assertThat(result.scratchDirsSwept()).isZero();
  }

  @Test
  void anEmptyDirectoryNamedLikeOursWithoutALockFile_isARunKilledInsideCreate_andIsSweptWhenOld()
      throws Exception {
    Path old = Files.createDirectories(scratchRoot().resolve("run-" + UUID_WITHOUT_LOCK));
    age(old, NOW.minus(TTL).minusSeconds(1));
    Path young =
        Files.createDirectories(scratchRoot().resolve("run-0f8fad5b-d9cb-469f-a165-70867728950e"));
    age(young, NOW.minus(TTL).plusSeconds(1));

    SweepResult result = sweep();

    assertThat(old).doesNotExist();
    assertThat(young).isDirectory();
    assertThat(result.scratchDirsSwept()).isEqualTo(1);
    assertThat(result.scratchDirsKeptYoung()).isEqualTo(1);
    assertThat(result.scratchDirsInUse()).isZero();
    assertThat(result.failure()).isEmpty();
  }

  @Test
  void aScratchRootThatIsALink_isNotSwept() throws Exception {
    Path shared = Files.createDirectories(work.resolve("shared"));
    Path someones = Files.createDirectories(shared.resolve("run-" + UUID_WITHOUT_LOCK));
    Files.createFile(someones.resolve(Scratch.LOCK_FILE));
    age(someones, NOW.minus(Duration.ofDays(30)));
    Path link = Files.createSymbolicLink(work.resolve("linked-scratch"), shared);

    SweepResult result =
        new Sweeper(
                new LocalStorage(),
                List.of(link),
                new SweepPolicy(TTL, Duration.ofHours(168)),
                Clock.fixed(NOW, ZoneOffset.UTC))
            .sweep(TableLocation.parse("table", work));

    assertThat(someones).isDirectory();
    assertThat(result.scratchDirsSwept()).isZero();
  }

  private static final String UUID_WITHOUT_LOCK = "6fa459ea-ee8a-3ca4-894e-db77e160355e";

  @Test
  void aLiveRunsScratch_isNeverSwept_howeverOld() throws Exception {
    try (Scratch live = Scratch.create(scratchRoot())) {
      age(live.dir(), NOW.minus(Duration.ofDays(30)));

      SweepResult result = sweep();

      assertThat(live.dir()).isDirectory();
      assertThat(live.dir().resolve(Scratch.LOCK_FILE)).isRegularFile();
      assertThat(result.scratchDirsInUse()).isEqualTo(1);
      assertThat(result.scratchDirsSwept()).isZero();
    }
  }

  @Test
  void anAbandonedScratch_goesOneSecondPastTheTtl_andStaysAtIt() throws Exception {
    Path older =
        leftover(
            "run-0f8fad5b-d9cb-469f-a165-70867728950e",
            NOW.minus(TTL).minusSeconds(1),
            "123456789");
    Path exact = leftover("run-7c9e6679-7425-40de-944b-e07fc1f90ae7", NOW.minus(TTL), "x");
    Path younger =
        leftover("run-3f2504e0-4f89-11d3-9a0c-0305e82c3301", NOW.minus(TTL).plusSeconds(1), "x");

    SweepResult result = sweep();

    assertThat(older).doesNotExist();
    assertThat(exact).isDirectory();
    assertThat(younger).isDirectory();
    assertThat(result.scratchDirsSwept()).isEqualTo(1);
    assertThat(result.scratchBytesSwept()).isEqualTo(9);
    assertThat(result.scratchDirsKeptYoung()).isEqualTo(2);
    assertThat(result.scratchDirsInUse()).isZero();
    assertThat(result.scratchCutoff()).isEqualTo(Instant.parse("2026-11-30T11:40:00Z"));
    assertThat(result.failure()).isEmpty();
  }

  @Test
  void directoriesAndFilesNotNamedLikeOurs_stayInTheScratchRoot() throws Exception {
    Path other = leftover("someone-elses", NOW.minus(Duration.ofDays(30)), "x");
    Path file = Files.writeString(scratchRoot().resolve("run-file"), "x");
    age(file, NOW.minus(Duration.ofDays(30)));

    SweepResult result = sweep();

    assertThat(other).isDirectory();
    assertThat(file).isRegularFile();
    assertThat(result.scratchDirsSwept()).isZero();
    assertThat(result.scratchDirsKeptYoung()).isZero();
  }

  @Test
  void noScratchRootYet_sweepsNothing() {
    SweepResult result = sweep();

    assertThat(result.failure()).isEmpty();
    assertThat(result.scratchDirsSwept()).isZero();
  }

  /**
   * A scratch root that is a mount point holds lost+found (drwx------ root), and any directory the
   * sweep cannot read is the same: not ours, and no reason to stop sweeping the rest. (Root reads
   * anything, so as root this passes either way; without CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH,
   * or as another user, a listing that asked it whether it is empty failed as a whole.)
   */
  @Test
  void anUnreadableDirectoryNotNamedLikeOurs_doesNotStopTheSweep() throws Exception {
    Path killed =
        leftover("run-0f8fad5b-d9cb-469f-a165-70867728950e", NOW.minus(Duration.ofDays(1)), "x");
    Path lostAndFound = Files.createDirectories(scratchRoot().resolve("lost+found"));
    Files.setPosixFilePermissions(lostAndFound, Set.of());
    try {
      SweepResult result = sweep();

      assertThat(result.failure()).isEmpty();
      assertThat(killed).doesNotExist();
      assertThat(result.scratchDirsSwept()).isEqualTo(1);
    } finally {
      Files.setPosixFilePermissions(lostAndFound, PosixFilePermissions.fromString("rwx------"));
    }
  }

  @FunctionalInterface
  private interface Meanwhile {
    void run() throws Exception;
  }

  /**
   * A sweep over local storage that runs {@code meanwhile} when it lists the table: after it listed
   * the scratch roots, before it deletes anything.
   */
  private SweepResult sweepWhile(Meanwhile meanwhile) {
    Storage local = new LocalStorage();
    Storage storage =
        (Storage)
            Proxy.newProxyInstance(
                Storage.class.getClassLoader(),
                new Class<?>[] {Storage.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("listRecursively")) {
                    meanwhile.run();
                  }
                  try {
                    return method.invoke(local, args);
                  } catch (InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
    return new Sweeper(
            storage,
            List.of(scratchRoot()),
            new SweepPolicy(TTL, Duration.ofHours(168)),
            Clock.fixed(NOW, ZoneOffset.UTC))
        .sweep(TableLocation.parse("table", work));
  }

  /**
   * A killed run's scratch replaced by a link to someone's directory after the listing, before its
   * delete: the link goes, never what it leads to.
   */
  @Test
  void aScratchDirectorySwappedForALinkAfterTheListing_onlyTheLinkGoes() throws Exception {
    Path someones = Files.createDirectories(work.resolve("elsewhere"));
    Files.createFile(someones.resolve(Scratch.LOCK_FILE));
    Files.writeString(someones.resolve("part-0.parquet"), "a user's");
    Path dir =
        leftover("run-0f8fad5b-d9cb-469f-a165-70867728950e", NOW.minus(Duration.ofDays(1)), "x");

    sweepWhile(
        () -> {
          Scratch.deleteTree(dir);
          Files.createSymbolicLink(dir, someones);
        });

    assertThat(someones.resolve("part-0.parquet")).isRegularFile();
    assertThat(someones.resolve(Scratch.LOCK_FILE)).isRegularFile();
    assertThat(Files.exists(dir, LinkOption.NOFOLLOW_LINKS)).isFalse();
  }

  /**
   * An empty lockless directory listed stale and replaced by a file of the same name before the
   * sweep removes it: the removal is an rmdir, which never unlinks a file.
   */
  @Test
  void anEmptyDirectoryReplacedByAFileAfterTheListing_theFileStays() throws Exception {
    Path dir = Files.createDirectories(scratchRoot().resolve("run-" + UUID_WITHOUT_LOCK));
    age(dir, NOW.minus(Duration.ofDays(1)));

    SweepResult result =
        sweepWhile(
            () -> {
              Files.delete(dir);
              Files.writeString(dir, "a user's");
            });

    assertThat(dir).isRegularFile().hasContent("a user's");
    assertThat(result.scratchDirsSwept()).isZero();
  }
}
