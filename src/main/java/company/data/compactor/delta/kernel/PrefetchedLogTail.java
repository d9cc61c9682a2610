package company.data.compactor.delta.kernel;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.model.TableLocation;
import company.data.compactor.storage.BoundedConcurrency;
import company.data.compactor.storage.Storage;
import company.data.compactor.storage.StoredObject;
import java.io.ByteArrayInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Storage for one snapshot load whose JSON commits after the latest checkpoint (the log's tail,
 * which kernel replays one file at a time, and twice: for the protocol and metadata, then for the
 * active files) were fetched many at once beforehand and are served from memory; everything else
 * goes to the storage underneath. Commit files never change once written, so serving a copy is
 * exact. On an object store each request costs its latency whatever the size, so a tail of N
 * commits costs about one round of requests instead of 2N in a row.
 */
final class PrefetchedLogTail implements Storage {

  /** At most this many tail bytes are held; commits beyond it are read on demand as before. */
  static final long MAX_BYTES = 64L * 1024 * 1024;

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern COMMIT = Pattern.compile("\\d{20}\\.json");
  private static final Pattern CHECKPOINT = Pattern.compile("\\d{20}\\.checkpoint\\..*parquet");

  private final Storage storage;
  private final Map<String, byte[]> commits;

  private PrefetchedLogTail(Storage storage, Map<String, byte[]> commits) {
    this.storage = storage;
    this.commits = Map.copyOf(commits);
  }

  /**
   * {@code storage} with the tail of {@code location}'s log fetched {@code concurrency} at a time;
   * {@code storage} itself when the log is local (nothing to save), missing, or its tail is shorter
   * than {@link BoundedConcurrency#SEQUENTIAL_BELOW}.
   *
   * @throws IOException when listing or reading fails (kernel would have failed the same way)
   */
  static Storage of(Storage storage, TableLocation location, int concurrency) throws IOException {
    String log = location.child("_delta_log");
    if (storage.localFile(log).isPresent()) {
      return storage;
    }
    long from = lastCheckpointVersion(storage, log);
    List<StoredObject> listed;
    try {
      listed = storage.listFrom(log + "/" + String.format("%020d", from));
    } catch (FileNotFoundException e) {
      return storage;
    }
    long checkpoint = -1;
    for (StoredObject o : listed) {
      if (CHECKPOINT.matcher(o.name()).matches()) {
        checkpoint = Math.max(checkpoint, Long.parseLong(o.name().substring(0, 20)));
      }
    }
    List<StoredObject> tail = new ArrayList<>();
    long bytes = 0;
    for (StoredObject o : listed) {
      if (COMMIT.matcher(o.name()).matches()
          && Long.parseLong(o.name().substring(0, 20)) > checkpoint
          && bytes + o.sizeBytes() <= MAX_BYTES) {
        tail.add(o);
        bytes += o.sizeBytes();
      }
    }
    if (tail.size() < BoundedConcurrency.SEQUENTIAL_BELOW) {
      return storage;
    }
    List<byte[]> contents =
        BoundedConcurrency.mapInOrder(
            tail,
            concurrency,
            o -> {
              try (InputStream in = storage.openFrom(o.path(), 0)) {
                return in.readAllBytes();
              }
            });
    Map<String, byte[]> byPath = new HashMap<>();
    for (int i = 0; i < tail.size(); i++) {
      byPath.put(tail.get(i).path(), contents.get(i));
    }
    return new PrefetchedLogTail(storage, byPath);
  }

  /** The version {@code _last_checkpoint} names, 0 when there is none or it cannot be read. */
  private static long lastCheckpointVersion(Storage storage, String log) {
    try (InputStream in = storage.openFrom(log + "/_last_checkpoint", 0)) {
      JsonNode version = JSON.readTree(in).get("version");
      return version != null && version.canConvertToLong() ? Math.max(0, version.asLong()) : 0;
    } catch (IOException | RuntimeException e) {
      // A missing or torn hint only means listing from the start, as kernel then does.
      return 0;
    }
  }

  /** How many commits are held (for tests). */
  int prefetched() {
    return commits.size();
  }

  @Override
  public InputStream openFrom(String path, long offset) throws IOException {
    byte[] content = commits.get(path);
    if (content == null) {
      return storage.openFrom(path, offset);
    }
    int from = (int) Math.min(content.length, Math.max(0, offset));
    return new ByteArrayInputStream(content, from, content.length - from);
  }

  @Override
  public List<StoredObject> listFrom(String path) throws IOException {
    return storage.listFrom(path);
  }

  @Override
  public List<StoredObject> listRecursively(String prefix) throws IOException {
    return storage.listRecursively(prefix);
  }

  @Override
  public StoredObject stat(String path) throws IOException {
    return storage.stat(path);
  }

  @Override
  public OutputStream create(String path) throws IOException {
    return storage.create(path);
  }

  @Override
  public boolean putIfAbsent(String path, byte[] content) throws IOException {
    return storage.putIfAbsent(path, content);
  }

  @Override
  public void makeDirectories(String path) throws IOException {
    storage.makeDirectories(path);
  }

  @Override
  public Optional<Path> localFile(String path) {
    return storage.localFile(path);
  }

  @Override
  public String realPath(String path) throws IOException {
    return storage.realPath(path);
  }

  @Override
  public List<String> realPaths(List<String> paths) throws IOException {
    return storage.realPaths(paths);
  }

  @Override
  public List<String> realPathsOfListed(List<StoredObject> listed) throws IOException {
    return storage.realPathsOfListed(listed);
  }

  @Override
  public java.util.Set<String> modifiedSince(List<String> paths, long cutoffMillis)
      throws IOException {
    return storage.modifiedSince(paths, cutoffMillis);
  }

  @Override
  public int deleteAll(Collection<String> paths) throws IOException {
    return storage.deleteAll(paths);
  }
}
