package company.data.compactor.storage;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * {@link Storage} on the local file system. Accepts {@code file:/abs}, {@code file:///abs} and
 * plain absolute paths and answers with {@code file:/abs} paths. Path strings are raw (not
 * percent-decoded), the form Delta kernel hands out.
 */
public final class LocalStorage implements Storage {

  /**
   * Temporary files this class writes start with this, so listings and vacuum can skip them; the
   * sweep at the start of a run deletes those a killed run left, once older than 168 hours.
   */
  public static final String TEMP_PREFIX = ".compactor-tmp-";

  /** The local path of a storage path. */
  public static Path toPath(String path) {
    String raw = path;
    if (raw.startsWith("file:")) {
      raw = raw.substring("file:".length());
      if (raw.startsWith("///")) {
        raw = raw.substring(2);
      }
    }
    if (!raw.startsWith("/")) {
      throw new IllegalArgumentException("not an absolute local path: " + path);
    }
    return Path.of(raw);
  }

  /** The storage path of a local path. */
  public static String toStoragePath(Path path) {
    return "file:" + path.toAbsolutePath().normalize();
  }

  @Override
  public List<StoredObject> listFrom(String path) throws IOException {
    Path file = toPath(path);
    Path dir = file.getParent();
    String from = file.getFileName().toString();
    if (!Files.isDirectory(dir)) {
      throw new FileNotFoundException("No such directory: " + dir);
    }
    List<StoredObject> found = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (Utf8Order.compare(name, from) >= 0 && !name.startsWith(TEMP_PREFIX)) {
          BasicFileAttributes attrs = attributes(entry);
          if (attrs != null && attrs.isRegularFile()) {
            found.add(toObject(entry, attrs));
          }
        }
      }
    }
    found.sort(Comparator.comparing(StoredObject::name, Utf8Order::compare));
    return found;
  }

  @Override
  public List<StoredObject> listRecursively(String prefix) throws IOException {
    Path dir = toPath(prefix);
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    List<StoredObject> found = new ArrayList<>();
    // One lstat per entry: the walk's own attributes (links not followed, so a link is not a
    // regular file), not a second read of them per file. An entry gone before it was read is
    // not listed.
    Files.walkFileTree(
        dir,
        java.util.EnumSet.noneOf(java.nio.file.FileVisitOption.class),
        Integer.MAX_VALUE,
        new java.nio.file.SimpleFileVisitor<>() {
          @Override
          public java.nio.file.FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
            if (attrs.isRegularFile()) {
              found.add(toObject(file, attrs));
            }
            return java.nio.file.FileVisitResult.CONTINUE;
          }

          @Override
          public java.nio.file.FileVisitResult visitFileFailed(Path file, IOException e)
              throws IOException {
            if (e instanceof NoSuchFileException) {
              return java.nio.file.FileVisitResult.CONTINUE;
            }
            throw e;
          }
        });
    found.sort(Comparator.comparing(StoredObject::path, Utf8Order::compare));
    return found;
  }

  @Override
  public StoredObject stat(String path) throws IOException {
    Path file = toPath(path);
    BasicFileAttributes attrs = attributes(file);
    if (attrs == null || !attrs.isRegularFile()) {
      throw new FileNotFoundException("No such file: " + path);
    }
    return toObject(file, attrs);
  }

  @Override
  public InputStream openFrom(String path, long offset) throws IOException {
    Path file = toPath(path);
    SeekableByteChannel channel;
    try {
      channel = Files.newByteChannel(file);
    } catch (NoSuchFileException e) {
      throw new FileNotFoundException("No such file: " + path);
    }
    channel.position(offset);
    return Channels.newInputStream(channel);
  }

  @Override
  public OutputStream create(String path) throws IOException {
    Path target = toPath(path);
    Files.createDirectories(target.getParent());
    return new PublishOnClose(tempSibling(target), buffer -> moveReplacing(buffer, target));
  }

  /**
   * {@inheritDoc}
   *
   * <p>Moved, not copied: to a temporary sibling of {@code path} first (a copy only when {@code
   * local} is on another file system; a process killed during it leaves a temporary file the sweep
   * removes), then renamed into place.
   */
  @Override
  public void publishFile(Path local, String path) throws IOException {
    Path target = toPath(path);
    Files.createDirectories(target.getParent());
    Path temp = tempSibling(target);
    try {
      Files.move(local, temp);
      moveReplacing(temp, target);
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  @Override
  public boolean putIfAbsent(String path, byte[] content) throws IOException {
    Path target = toPath(path);
    Files.createDirectories(target.getParent());
    Path temp = tempSibling(target);
    try {
      Files.write(temp, content);
      // link(2) fails atomically when the target exists, unlike a check-then-rename.
      Files.createLink(target, temp);
      return true;
    } catch (FileAlreadyExistsException e) {
      return false;
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  @Override
  public void makeDirectories(String path) throws IOException {
    Files.createDirectories(toPath(path));
  }

  @Override
  public java.util.Optional<Path> localFile(String path) {
    return java.util.Optional.of(toPath(path));
  }

  @Override
  public String realPath(String path) throws IOException {
    Path lexical = toPath(path);
    Path existing = lexical;
    while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
      existing = existing.getParent();
    }
    if (existing == null) {
      return toStoragePath(lexical);
    }
    return toStoragePath(existing.toRealPath().resolve(existing.relativize(lexical)));
  }

  /**
   * Each directory is resolved once; a file is then its directory's real path plus its name, unless
   * it is itself a symbolic link (one {@code lstat} per file tells), which is resolved in full as
   * {@link #realPath} does. The same answers as {@link #realPath} path by path.
   */
  @Override
  public List<String> realPaths(List<String> paths) throws IOException {
    return realPaths(paths, true);
  }

  /**
   * As {@link #realPaths}, without the {@code lstat} per file: the walk that listed them read each
   * entry's own attributes (links not followed) and kept regular files only.
   */
  @Override
  public List<String> realPathsOfListed(List<StoredObject> listed) throws IOException {
    return realPaths(listed.stream().map(StoredObject::path).toList(), false);
  }

  /**
   * Each directory resolved once, by its text: {@link #realPath} of a directory, a slash and a
   * plain name (not empty, {@code .} or {@code ..}) that is not itself a link is the directory's
   * real path, a slash and that name, since the file system walks the directory the same way either
   * way. The file's name is as given; any other path is resolved by {@link #realPath}.
   */
  private List<String> realPaths(List<String> paths, boolean filesMayBeLinks) throws IOException {
    Map<String, String> realDirectories = new HashMap<>();
    List<String> real = new ArrayList<>(paths.size());
    for (String path : paths) {
      int slash = path.lastIndexOf('/');
      String name = path.substring(slash + 1);
      if (slash <= 0
          || path.charAt(slash - 1) == ':'
          || name.isEmpty()
          || name.equals(".")
          || name.equals("..")
          || (filesMayBeLinks && Files.isSymbolicLink(toPath(path)))) {
        real.add(realPath(path));
        continue;
      }
      String directory = path.substring(0, slash);
      String realDirectory = realDirectories.get(directory);
      if (realDirectory == null) {
        realDirectory = realPath(directory);
        realDirectories.put(directory, realDirectory);
      }
      real.add(realDirectory.endsWith("/") ? realDirectory + name : realDirectory + "/" + name);
    }
    return real;
  }

  /** One {@code lstat} per path (a link answers its own time, not its target's). */
  @Override
  public java.util.Set<String> modifiedSince(List<String> paths, long cutoffMillis)
      throws IOException {
    java.util.Set<String> young = new java.util.HashSet<>();
    for (String path : paths) {
      try {
        BasicFileAttributes attributes =
            Files.readAttributes(
                toPath(path), BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (attributes.lastModifiedTime().toMillis() >= cutoffMillis) {
          young.add(path);
        }
      } catch (NoSuchFileException e) {
        // Gone: nothing to keep.
      }
    }
    return young;
  }

  /**
   * Each path's file, link (not its target) or empty directory removed, one {@code unlink} in the
   * common case ({@link java.io.File#delete}; {@link Files#deleteIfExists} reads the entry's
   * attributes first). Where that removes nothing, {@link Files#deleteIfExists} says why: nothing
   * when the path is gone, its error otherwise. Every path counts, gone or deleted.
   */
  @Override
  public int deleteAll(Collection<String> paths) throws IOException {
    int deleted = 0;
    for (String path : paths) {
      Path file = toPath(path);
      if (!file.toFile().delete()) {
        Files.deleteIfExists(file);
      }
      deleted++;
    }
    return deleted;
  }

  private static Path tempSibling(Path target) {
    return target.resolveSibling(TEMP_PREFIX + UUID.randomUUID() + "-" + target.getFileName());
  }

  private static void moveReplacing(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private static BasicFileAttributes attributes(Path file) throws IOException {
    try {
      return Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  private static StoredObject toObject(Path file, BasicFileAttributes attrs) {
    return new StoredObject(toStoragePath(file), attrs.size(), attrs.lastModifiedTime().toMillis());
  }
}
