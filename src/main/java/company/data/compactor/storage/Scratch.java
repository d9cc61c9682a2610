package company.data.compactor.storage;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * A local working directory owned by one run: created fresh under a root (never shared by two runs)
 * and deleted with everything in it on {@link #close()}, on success and on failure.
 */
public final class Scratch implements AutoCloseable {

  private final Path dir;

  private Scratch(Path dir) {
    this.dir = dir;
  }

  /** Creates {@code <root>/run-<uuid>}. */
  public static Scratch create(Path root) {
    try {
      Files.createDirectories(root);
      return new Scratch(Files.createDirectory(root.resolve("run-" + UUID.randomUUID())));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a scratch directory under " + root, e);
    }
  }

  /** The directory. */
  public Path dir() {
    return dir;
  }

  /** A new empty subdirectory. */
  public Path newDirectory(String name) throws IOException {
    return Files.createDirectories(dir.resolve(name));
  }

  /**
   * A local file holding {@code path}'s content: the file itself when storage is local, otherwise a
   * copy downloaded into {@code into}.
   */
  public static Path localCopy(Storage storage, String path, Path into, String name)
      throws IOException {
    var local = storage.localFile(path);
    if (local.isPresent()) {
      return local.get();
    }
    Path target = into.resolve(name);
    try (InputStream in = storage.openFrom(path, 0)) {
      Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
    }
    return target;
  }

  /** Deletes the directory and everything in it. */
  @Override
  public void close() {
    try {
      deleteTree(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete scratch directory " + dir, e);
    }
  }

  /** Deletes {@code dir} and everything in it; nothing when it does not exist. */
  public static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) walk.sorted(Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(p);
      }
    }
  }
}
