package company.data.compactor.storage;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A local working directory owned by one run: created fresh under a root as {@code
 * <root>/run-<uuid>} (never shared by two runs) and deleted with everything in it on {@link
 * #close()}, on success and on failure.
 *
 * <p>For its whole life the directory holds an OS file lock ({@link FileChannel#tryLock()}) on
 * {@value #LOCK_FILE} inside it. The operating system drops the lock when the process dies, however
 * it dies ({@code kill -9} included), so a directory whose lock can be taken belongs to no live
 * process: that is how a later run's sweep tells a killed run's leftovers from a live run's scratch
 * ({@link #lockIfAbandoned}).
 */
public final class Scratch implements AutoCloseable {

  /** Every scratch directory's name starts with this. */
  public static final String RUN_PREFIX = "run-";

  /** The file inside each scratch directory whose OS lock says "in use". */
  public static final String LOCK_FILE = ".scratch.lock";

  /**
   * The lock files (by file key) this process holds the lock of: its open scratch directories' and
   * those its sweeps hold. {@link #lockIfAbandoned} must not even open one of them: the OS lock
   * belongs to the process, and closing any channel of the file drops it, so a second channel
   * opened and closed here would free a live directory for other processes' sweeps.
   */
  private static final Set<Object> HELD = ConcurrentHashMap.newKeySet();

  private final Path dir;
  private final FileChannel lockChannel;
  private final Object lockKey;

  private Scratch(Path dir, FileChannel lockChannel, Object lockKey) {
    this.dir = dir;
    this.lockChannel = lockChannel;
    this.lockKey = lockKey;
  }

  /** The file's identity (device and inode on Linux); null where the file system has none. */
  private static Object fileKey(Path file) throws IOException {
    return Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
        .fileKey();
  }

  /**
   * Records that this process holds (or is about to take) the lock of the file with {@code key}:
   * the key to release later, or null when there is none or it was recorded already.
   */
  private static Object held(Object key) {
    return key != null && HELD.add(key) ? key : null;
  }

  /** Whether this process holds (or is taking) the lock of the file with {@code key}. */
  private static boolean holds(Object key) {
    return key != null && HELD.contains(key);
  }

  private static void released(Object key) {
    if (key != null) {
      HELD.remove(key);
    }
  }

  /**
   * Creates {@code <root>/run-<uuid>} and locks it for as long as this scratch is open.
   *
   * @throws UncheckedIOException when the directory or its lock cannot be created
   */
  public static Scratch create(Path root) {
    Path dir = null;
    try {
      Files.createDirectories(root);
      dir = Files.createDirectory(root.resolve(RUN_PREFIX + UUID.randomUUID()));
      FileChannel channel =
          FileChannel.open(
              dir.resolve(LOCK_FILE), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
      Object key = null;
      try {
        // Known as held before it is locked: no sweep of this process opens it from now on.
        key = held(fileKey(dir.resolve(LOCK_FILE)));
        // A fresh file nobody else knows of: the lock is always free.
        if (channel.tryLock() == null) {
          throw new IOException("the lock of a new scratch directory was held: " + dir);
        }
      } catch (IOException | RuntimeException e) {
        channel.close();
        released(key);
        throw e;
      }
      return new Scratch(dir, channel, key);
    } catch (IOException e) {
      if (dir != null) {
        try {
          deleteScratchTree(dir);
        } catch (IOException suppressed) {
          e.addSuppressed(suppressed);
        }
      }
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

  /** Deletes the directory and everything in it, then gives up its lock. */
  @Override
  public void close() {
    try {
      // Deleted while still locked, so no sweep can take the directory for abandoned meanwhile.
      deleteScratchTree(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete scratch directory " + dir, e);
    } finally {
      try {
        lockChannel.close();
      } catch (IOException e) {
        // Closing a lock file's channel only releases the lock; the directory is gone already.
        throw new UncheckedIOException("cannot release the lock of scratch directory " + dir, e);
      } finally {
        released(lockKey);
      }
    }
  }

  /**
   * A scratch directory's lock, taken by a sweep: while it is held, no process uses the directory.
   * Closing it releases the lock.
   */
  public static final class AbandonedLock implements AutoCloseable {
    private final FileChannel channel;
    private final Object key;

    private AbandonedLock(FileChannel channel, Object key) {
      this.channel = channel;
      this.key = key;
    }

    @Override
    public void close() throws IOException {
      try {
        channel.close();
      } finally {
        released(key);
      }
    }
  }

  /**
   * Takes the lock of the scratch directory {@code dir} when no live process holds it: the process
   * that made it has finished or died. Empty while a process (this one included) still holds it, or
   * when the directory is gone. A directory without a lock file gets one and counts as abandoned
   * when that lock is free (the sweep itself never asks about one: it removes such a directory only
   * when it is empty, see {@link company.data.compactor.sweep.Sweeper}).
   *
   * @throws IOException when the lock file cannot be opened for another reason
   */
  public static Optional<AbandonedLock> lockIfAbandoned(Path dir) throws IOException {
    Path lockFile = dir.resolve(LOCK_FILE);
    try {
      if (holds(fileKey(lockFile))) {
        // Ours: not even opened, since closing a second channel would drop the lock.
        return Optional.empty();
      }
    } catch (NoSuchFileException e) {
      // No lock file yet: made below.
    }
    FileChannel channel;
    try {
      channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
    Object key = null;
    FileLock lock;
    try {
      key = held(fileKey(lockFile));
      lock = channel.tryLock();
    } catch (OverlappingFileLockException e) {
      // A scratch directory of this very process after all (the OS lock is per process).
      lock = null;
    } catch (IOException | RuntimeException e) {
      channel.close();
      released(key);
      throw e;
    }
    if (lock == null) {
      channel.close();
      released(key);
      return Optional.empty();
    }
    return Optional.of(new AbandonedLock(channel, key));
  }

  /** Deletes one file or empty directory: true when it deleted it, false when it was gone. */
  @FunctionalInterface
  interface PathDeleter {
    boolean delete(Path path) throws IOException;
  }

  /**
   * Deletes the scratch directory {@code dir}: everything in it, then its lock file, then the
   * directory itself; nothing when it does not exist. Whenever a process doing this is killed, what
   * it leaves still holds the lock file (a later sweep locks and deletes it, {@link
   * #lockIfAbandoned}) or is empty (a later sweep removes it once it is old). A directory that has
   * lost its lock file but not its content would be left forever.
   *
   * @return the bytes of the regular files deleted
   */
  public static long deleteScratchTree(Path dir) throws IOException {
    return deleteScratchTree(dir, Files::deleteIfExists);
  }

  static long deleteScratchTree(Path dir, PathDeleter deleter) throws IOException {
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      // Gone, or a link or a file in its place: that alone goes, never what a link leads to.
      return deleteTree(dir, deleter);
    }
    Path lockFile = dir.resolve(LOCK_FILE);
    long bytes = 0;
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path entry : entries) {
        if (!entry.equals(lockFile)) {
          bytes += deleteTree(entry, deleter);
        }
      }
    } catch (NoSuchFileException e) {
      return bytes;
    }
    deleter.delete(lockFile);
    deleter.delete(dir);
    return bytes;
  }

  /**
   * Deletes {@code dir} and everything in it; nothing when it does not exist. Files that vanish
   * meanwhile (deleted by someone else) are not an error.
   *
   * @return the bytes of the regular files deleted
   */
  public static long deleteTree(Path dir) throws IOException {
    return deleteTree(dir, Files::deleteIfExists);
  }

  private static long deleteTree(Path dir, PathDeleter deleter) throws IOException {
    if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
      return 0;
    }
    AtomicLong bytes = new AtomicLong();
    Files.walkFileTree(
        dir,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
              throws IOException {
            if (deleter.delete(file) && attrs.isRegularFile()) {
              bytes.addAndGet(attrs.size());
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
            if (e instanceof NoSuchFileException) {
              return FileVisitResult.CONTINUE;
            }
            throw e;
          }

          @Override
          public FileVisitResult postVisitDirectory(Path directory, IOException e)
              throws IOException {
            if (e != null && !(e instanceof NoSuchFileException)) {
              throw e;
            }
            deleter.delete(directory);
            return FileVisitResult.CONTINUE;
          }
        });
    return bytes.get();
  }
}
