package company.data.compactor.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.stream.Stream;
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
  void listRecursively_listsRegularFilesWithTheirSizes_neverThroughOrAsALink() throws Exception {
    Path table = Files.createDirectories(dir.resolve("t/p=a"));
    Path outside = Files.createDirectories(dir.resolve("outside/deep"));
    Files.write(table.resolve("part-0.parquet"), new byte[7]);
    Files.write(outside.resolve("victim.parquet"), new byte[3]);
    Files.createSymbolicLink(table.resolve("link.parquet"), outside.resolve("victim.parquet"));
    Files.createSymbolicLink(dir.resolve("t/p=b"), outside);
    Files.createDirectories(dir.resolve("t/empty"));

    assertThat(storage.listRecursively(root() + "/t"))
        .extracting(StoredObject::path, StoredObject::sizeBytes)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(root() + "/t/p=a/part-0.parquet", 7L));
  }

  @Test
  void modifiedSince_answersTheFilesModifiedAtOrAfterTheCutoff_aLinkByItsOwnTime_skippingGoneOnes()
      throws Exception {
    long cutoff = System.currentTimeMillis() - 3_600_000L;
    Path table = Files.createDirectories(dir.resolve("t"));
    Path old = Files.writeString(table.resolve("old.parquet"), "x");
    Files.setLastModifiedTime(old, FileTime.fromMillis(cutoff - 1));
    Path atCutoff = Files.writeString(table.resolve("at.parquet"), "x");
    Files.setLastModifiedTime(atCutoff, FileTime.fromMillis(cutoff));
    Path rewritten = Files.writeString(table.resolve("rewritten.parquet"), "new bytes");
    Path link = Files.createSymbolicLink(table.resolve("link.parquet"), rewritten);
    List<String> paths =
        Stream.of(old, atCutoff, rewritten, link, table.resolve("gone.parquet"))
            .map(LocalStorage::toStoragePath)
            .toList();

    assertThat(storage.modifiedSince(paths, cutoff))
        .containsExactlyInAnyOrder(
            LocalStorage.toStoragePath(atCutoff),
            LocalStorage.toStoragePath(rewritten),
            LocalStorage.toStoragePath(link));
    Files.setLastModifiedTime(rewritten, FileTime.fromMillis(cutoff - 1));
    assertThat(storage.modifiedSince(paths, cutoff))
        .as("a link answers its own time, not its target's")
        .containsExactlyInAnyOrder(
            LocalStorage.toStoragePath(atCutoff), LocalStorage.toStoragePath(link));
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

  /**
   * Beside a partition directory that is a link (not listed): every object a listing returns
   * resolves as {@link LocalStorage#realPath} resolves it, and a directory swapped for a link after
   * the listing is followed to where it now really is.
   */
  @Test
  void realPathsOfListed_answerWhatRealPathAnswers_forEveryListedObject_andFollowALaterSwap()
      throws Exception {
    Path realTable = Files.createDirectories(dir.resolve("real/t"));
    Files.createDirectories(realTable.resolve("p=a"));
    Files.writeString(realTable.resolve("p=a/one.parquet"), "x");
    Files.writeString(realTable.resolve("p=a/two.parquet"), "x");
    Files.writeString(realTable.resolve("top.parquet"), "x");
    Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
    Files.writeString(elsewhere.resolve("far.parquet"), "x");
    Files.createSymbolicLink(realTable.resolve("p=b"), elsewhere);
    java.util.List<StoredObject> listed =
        storage.listRecursively(LocalStorage.toStoragePath(realTable));
    java.util.List<String> oneByOne = new java.util.ArrayList<>();
    for (StoredObject object : listed) {
      oneByOne.add(storage.realPath(object.path()));
    }

    assertThat(listed).hasSize(3);
    assertThat(storage.realPathsOfListed(listed)).containsExactlyElementsOf(oneByOne);
    assertThat(storage.realPathsOfListed(listed))
        .allSatisfy(real -> assertThat(real).startsWith(LocalStorage.toStoragePath(realTable)));

    Path moved = Files.move(realTable.resolve("p=a"), dir.resolve("moved-p=a"));
    Files.createSymbolicLink(realTable.resolve("p=a"), elsewhere);
    String elsewhereReal = LocalStorage.toStoragePath(elsewhere.toRealPath());
    assertThat(storage.realPathsOfListed(listed))
        .as("the swapped directory resolves to its new target")
        .filteredOn(real -> real.startsWith(elsewhereReal + "/"))
        .containsExactlyInAnyOrder(elsewhereReal + "/one.parquet", elsewhereReal + "/two.parquet");
    assertThat(moved).exists();
  }

  @Test
  void realPathsOfListed_answerWhatRealPathAnswers_forOddNamesAndSpellings() throws Exception {
    Path table = Files.createDirectories(dir.resolve("t a%20b"));
    java.util.List<String> names =
        java.util.List.of(
            "p=a b/x.parquet",
            "p=%2F/..x",
            "p=./.hidden",
            "p=caf\u00e9/\u00e9.parquet",
            "p=\u00e9/a.",
            "q=1/r=/s= =/y.parquet",
            "top.parquet");
    for (String name : names) {
      Path file = table.resolve(name);
      Files.createDirectories(file.getParent());
      Files.writeString(file, "x");
    }
    Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
    java.util.List<StoredObject> listed =
        new java.util.ArrayList<>(storage.listRecursively(LocalStorage.toStoragePath(table)));
    String root = LocalStorage.toStoragePath(table);
    // Spellings no listing prints, which must still resolve as realPath resolves them.
    for (String spelling :
        java.util.List.of(
            root + "//top.parquet",
            root + "/./top.parquet",
            root + "/q=1/../top.parquet",
            root + "/q=1/r=/",
            "file://" + table + "/top.parquet",
            "file:///" + table.toString().substring(1) + "/top.parquet",
            "file:/absent-" + java.util.UUID.randomUUID())) {
      listed.add(new StoredObject(spelling, 1, 0));
    }
    Files.move(table.resolve("q=1"), dir.resolve("moved"));
    Files.createSymbolicLink(table.resolve("q=1"), elsewhere);
    java.util.List<String> oneByOne = new java.util.ArrayList<>();
    for (StoredObject object : listed) {
      oneByOne.add(storage.realPath(object.path()));
    }

    assertThat(storage.realPathsOfListed(listed)).containsExactlyElementsOf(oneByOne);
    assertThat(storage.realPaths(listed.stream().map(StoredObject::path).toList()))
        .containsExactlyElementsOf(oneByOne);
    assertThat(oneByOne).anySatisfy(real -> assertThat(real).contains("elsewhere"));
  }

  @Test
  void deleteAll_removesFilesAndLinksNotTheirTargets_andSaysWhyItCannot() throws Exception {
    Path target = Files.writeString(dir.resolve("target.parquet"), "x");
    Path link = Files.createSymbolicLink(dir.resolve("link.parquet"), target);
    Path file = Files.writeString(dir.resolve("file.parquet"), "x");
    Path full = Files.createDirectories(dir.resolve("full"));
    Files.writeString(full.resolve("inside.parquet"), "x");
    Path empty = Files.createDirectories(dir.resolve("empty"));

    int deleted =
        storage.deleteAll(
            java.util.List.of(
                LocalStorage.toStoragePath(link),
                LocalStorage.toStoragePath(file),
                LocalStorage.toStoragePath(empty),
                LocalStorage.toStoragePath(dir.resolve("never.parquet"))));

    assertThat(deleted).isEqualTo(4);
    assertThat(link).doesNotExist();
    assertThat(file).doesNotExist();
    assertThat(empty).doesNotExist();
    assertThat(target).hasContent("x");
    assertThat(
            org.assertj.core.api.Assertions.catchThrowable(
                () -> storage.deleteAll(java.util.List.of(LocalStorage.toStoragePath(full)))))
        .isInstanceOf(java.nio.file.DirectoryNotEmptyException.class)
        .hasMessageContaining("full");
    assertThat(full.resolve("inside.parquet")).exists();
  }

  @Test
  void realPaths_answerExactlyWhatRealPathAnswers_pathByPath() throws Exception {
    Path outside = Files.createDirectories(dir.resolve("outside"));
    Path victim = Files.writeString(outside.resolve("victim.parquet"), "x");
    Files.writeString(outside.resolve("other.parquet"), "x");
    Path table = Files.createDirectories(dir.resolve("t"));
    Files.createDirectories(table.resolve("p=a"));
    Files.writeString(table.resolve("p=a/ok.parquet"), "x");
    Files.writeString(table.resolve("p=a/ok2.parquet"), "x");
    // a linked file among plain ones in the same directory, a linked directory, a dangling link
    Files.createSymbolicLink(table.resolve("p=a/link.parquet"), victim);
    Files.createSymbolicLink(table.resolve("p=b"), outside);
    Files.createSymbolicLink(table.resolve("p=a/dangling.parquet"), dir.resolve("gone"));
    Files.createSymbolicLink(table.resolve("p=a/dirlink"), outside);
    java.util.List<String> paths =
        java.util.stream.Stream.of(
                "p=a/ok.parquet",
                "p=a/link.parquet",
                "p=a/ok2.parquet",
                "p=b/victim.parquet",
                "p=b/other.parquet",
                "p=a/missing.parquet",
                "p=b/new/out.parquet",
                "p=a/dirlink",
                "p=a/./ok.parquet",
                "p=a/..",
                "p=c/x.parquet")
            .map(p -> LocalStorage.toStoragePath(table) + "/" + p)
            .toList();
    java.util.List<String> oneByOne = new java.util.ArrayList<>();
    for (String path : paths) {
      oneByOne.add(storage.realPath(path));
    }

    assertThat(storage.realPaths(paths)).containsExactlyElementsOf(oneByOne);
    assertThat(storage.realPaths(paths).get(1))
        .as("a linked file in a plain directory resolves to its target")
        .isEqualTo(LocalStorage.toStoragePath(outside.toRealPath()) + "/victim.parquet");
  }

  @Test
  void publishFile_movesTheFileOnOneFileSystem_withoutCopyingIt() throws Exception {
    Path local = Files.write(dir.resolve("scratch-output.parquet"), new byte[4096]);
    Object inode = Files.readAttributes(local, BasicFileAttributes.class).fileKey();

    storage.publishFile(local, LocalStorage.toStoragePath(dir.resolve("table/p=1/out.parquet")));

    Path published = dir.resolve("table/p=1/out.parquet");
    assertThat(Files.readAttributes(published, BasicFileAttributes.class).fileKey())
        .isEqualTo(inode);
    assertThat(local).doesNotExist();
    try (Stream<Path> left = Files.list(published.getParent())) {
      assertThat(left).containsExactly(published);
    }
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
