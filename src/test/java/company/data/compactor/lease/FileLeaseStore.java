package company.data.compactor.lease;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import company.data.compactor.error.Errors;
import company.data.compactor.model.TableKeys;
import company.data.compactor.model.TableLocation;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A test stand-in: leases as small JSON files under a directory, for handler tests of tables that
 * live nowhere (s3://bkt/...). Production keeps leases with the table ({@link TableLeaseStore}) or
 * in DynamoDB. Every read-modify-write of a table's lease happens under an OS file lock on {@code
 * <key>.lock} (and a lock within this JVM, since the OS lock is per process), so concurrent
 * processes see one winner. A crashed holder's lease expires like any other.
 */
public final class FileLeaseStore implements LeaseStore {

  /** Lease files live here, relative to the work directory. */
  public static final String DEFAULT_RELATIVE_PATH = ".delta-compactor/leases";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ConcurrentHashMap<Path, ReentrantLock> IN_PROCESS =
      new ConcurrentHashMap<>();

  private final Path directory;

  public FileLeaseStore(Path directory) {
    this.directory = directory.toAbsolutePath();
  }

  @Override
  public LeaseAttempt tryAcquire(TableLocation table, String owner, Instant now, Duration ttl) {
    String key = TableKeys.compactionKey(table);
    return locked(
        key,
        "taking the lease of " + table,
        () -> {
          Optional<Lease> current = read(key);
          if (current.isPresent()
              && !current.get().hasExpiredAt(now)
              && !current.get().owner().equals(owner)) {
            return LeaseAttempt.heldBy(current.get());
          }
          Lease lease = new Lease(key, table.uri(), owner, now, now.plus(ttl));
          write(lease);
          return LeaseAttempt.acquired(lease);
        });
  }

  @Override
  public Optional<Lease> renew(Lease lease, Instant now, Duration ttl) {
    return locked(
        lease.key(),
        "renewing the lease of " + lease.tableUri(),
        () -> {
          Optional<Lease> current = read(lease.key());
          if (current.isEmpty() || !current.get().owner().equals(lease.owner())) {
            return Optional.<Lease>empty();
          }
          Lease renewed =
              new Lease(
                  lease.key(),
                  lease.tableUri(),
                  lease.owner(),
                  current.get().acquiredAt(),
                  now.plus(ttl));
          write(renewed);
          return Optional.of(renewed);
        });
  }

  @Override
  public boolean holds(Lease lease, Instant now) {
    return locked(
        lease.key(),
        "checking the lease of " + lease.tableUri(),
        () ->
            read(lease.key())
                .filter(c -> c.owner().equals(lease.owner()) && !c.hasExpiredAt(now))
                .isPresent());
  }

  @Override
  public void release(Lease lease) {
    locked(
        lease.key(),
        "releasing the lease of " + lease.tableUri(),
        () -> {
          Optional<Lease> current = read(lease.key());
          if (current.isPresent() && current.get().owner().equals(lease.owner())) {
            Files.deleteIfExists(leaseFile(lease.key()));
          }
          return null;
        });
  }

  @Override
  public String describe() {
    return "file:" + directory;
  }

  private interface Body<T> {
    T run() throws IOException;
  }

  private <T> T locked(String key, String doing, Body<T> body) {
    Path lockFile = directory.resolve(key + ".lock");
    ReentrantLock local = IN_PROCESS.computeIfAbsent(lockFile, p -> new ReentrantLock());
    local.lock();
    try {
      Files.createDirectories(directory);
      try (FileChannel channel =
              FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
          FileLock ignored = channel.lock()) {
        return body.run();
      }
    } catch (IOException e) {
      throw Errors.operationFailed(doing + " in " + directory, e);
    } finally {
      local.unlock();
    }
  }

  private Path leaseFile(String key) {
    return directory.resolve(key + ".json");
  }

  private Optional<Lease> read(String key) throws IOException {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(leaseFile(key));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
    var node = JSON.readTree(bytes);
    return Optional.of(
        new Lease(
            key,
            node.path("table_uri").asText(),
            node.path("owner").asText(),
            Instant.parse(node.path("acquired_at").asText()),
            Instant.parse(node.path("expires_at").asText())));
  }

  private void write(Lease lease) throws IOException {
    ObjectNode node =
        JSON.createObjectNode()
            .put("table_uri", lease.tableUri())
            .put("owner", lease.owner())
            .put("acquired_at", lease.acquiredAt().toString())
            .put("expires_at", lease.expiresAt().toString());
    Path temporary = directory.resolve(lease.key() + ".json.tmp");
    Files.write(temporary, JSON.writeValueAsBytes(node));
    Files.move(
        temporary,
        leaseFile(lease.key()),
        StandardCopyOption.ATOMIC_MOVE,
        StandardCopyOption.REPLACE_EXISTING);
  }
}
