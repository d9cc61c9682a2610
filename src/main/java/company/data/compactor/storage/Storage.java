package company.data.compactor.storage;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The storage a table lives on, addressed by full paths ({@code file:/abs/path} or {@code
 * s3://bucket/key}). Implementations: {@link LocalStorage}; S3 plugs in behind the same contract.
 *
 * <p>Every method that reads a missing file throws {@link java.io.FileNotFoundException} (Delta
 * kernel relies on exactly that type). Implementations are thread-safe; streams they return belong
 * to the caller, who closes them.
 */
public interface Storage {

  /**
   * Files in the directory of {@code path} whose names sort at or after the name of {@code path}
   * (UTF-8 byte order), sorted by name. Subdirectories are not listed.
   *
   * @throws java.io.FileNotFoundException if the directory does not exist
   */
  List<StoredObject> listFrom(String path) throws IOException;

  /**
   * Every file below the directory {@code prefix}, at any depth, sorted by path. A missing
   * directory lists as empty.
   */
  List<StoredObject> listRecursively(String prefix) throws IOException;

  /**
   * Size and modification time of one file.
   *
   * @throws java.io.FileNotFoundException if it does not exist
   */
  StoredObject stat(String path) throws IOException;

  /**
   * Reads the file from byte {@code offset} to its end.
   *
   * @throws java.io.FileNotFoundException if it does not exist
   */
  InputStream openFrom(String path, long offset) throws IOException;

  /**
   * Writes a file. Its content becomes visible, whole, when the stream is closed; an existing file
   * is replaced. Closing after a failed write may leave nothing or the old content, never a part.
   */
  OutputStream create(String path) throws IOException;

  /**
   * Writes the finished local file {@code local} to {@code path}, as {@link #create} would write
   * its bytes (visible whole, an existing file replaced); {@code local} is consumed: afterwards it
   * is gone or, after a failure, may still be there for the caller to delete. The default streams
   * it through {@link #create}; local storage moves it into place and S3 uploads it straight from
   * the file, neither copying it through a buffer of its own first.
   */
  default void publishFile(java.nio.file.Path local, String path) throws IOException {
    try (InputStream in = java.nio.file.Files.newInputStream(local);
        OutputStream out = create(path)) {
      in.transferTo(out);
    }
    java.nio.file.Files.deleteIfExists(local);
  }

  /**
   * Writes {@code content} to {@code path} only if no file is there, atomically: of two racing
   * callers exactly one gets {@code true}. This is how Delta log commits are made.
   *
   * <p>On an object store a lost response hides the outcome: a failure may have written the file,
   * and {@code false} may mean the file is this very write (an earlier attempt of it). Callers that
   * must know read the file back and compare bytes.
   *
   * @return {@code false} when a file already existed (it is left as it was)
   * @throws IOException when the write failed; the file may or may not have been written
   */
  boolean putIfAbsent(String path, byte[] content) throws IOException;

  /** Makes sure the directory exists where storage has directories; a no-op on object stores. */
  void makeDirectories(String path) throws IOException;

  /**
   * The local file behind {@code path} when storage is the local disk, so engines can read it in
   * place instead of copying it to scratch; empty for remote storage.
   */
  default java.util.Optional<java.nio.file.Path> localFile(String path) {
    return java.util.Optional.empty();
  }

  /**
   * Where {@code path} really is once symbolic links are followed, in storage spelling ({@code
   * file:/...}): on local disk, the real path of its deepest existing ancestor with the rest of
   * {@code path} appended, so a file not written yet resolves through its directory. Stores without
   * links (S3) answer {@code path} itself, which is the default. Callers compare the answer with
   * the real path of the table root to keep reads and writes inside it.
   *
   * @throws IOException if a link on the way cannot be resolved (a dangling link)
   */
  default String realPath(String path) throws IOException {
    return path;
  }

  /**
   * {@link #realPath} of each of {@code paths}, in the same order: what a caller checking many
   * files at once (every active file, every listed object) asks. Local disk resolves each directory
   * once instead of every path's full chain of links.
   *
   * @throws IOException as {@link #realPath}
   */
  default List<String> realPaths(List<String> paths) throws IOException {
    List<String> real = new ArrayList<>(paths.size());
    for (String path : paths) {
      real.add(realPath(path));
    }
    return real;
  }

  /**
   * {@link #realPaths} of objects that {@link #listRecursively} or {@link #listFrom} of this store
   * returned: a listing never follows a symbolic link and lists only regular files, so an object it
   * found was not itself a link when listed, and only its directories need resolving (a directory
   * swapped for a link since the listing is still followed to where it really is). A file swapped
   * for a link since the listing is not seen here: a caller about to delete asks {@link #realPaths}
   * again just before. Stores without links answer the objects' paths, which is the default.
   *
   * @throws IOException as {@link #realPath}
   */
  default List<String> realPathsOfListed(List<StoredObject> listed) throws IOException {
    return realPaths(listed.stream().map(StoredObject::path).toList());
  }

  /**
   * Of {@code paths}, those storage now says were modified at or after {@code cutoffMillis}; paths
   * that are gone are left out. A caller about to delete by the times of an earlier listing asks
   * again just before: a file rewritten in place since it was listed is young again. Stores where
   * that would cost a request per object (S3) answer none, which is the default: there the
   * listing's times stand.
   *
   * @throws IOException when a path's attributes cannot be read
   */
  default java.util.Set<String> modifiedSince(List<String> paths, long cutoffMillis)
      throws IOException {
    return java.util.Set.of();
  }

  /**
   * Deletes files; a file that is already gone counts as deleted.
   *
   * @return how many files were deleted or already absent
   */
  int deleteAll(Collection<String> paths) throws IOException;
}
