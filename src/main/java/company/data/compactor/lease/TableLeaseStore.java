package company.data.compactor.lease;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import company.data.compactor.error.Errors;
import company.data.compactor.model.TableKeys;
import company.data.compactor.model.TableLocation;
import company.data.compactor.storage.Storage;
import company.data.compactor.storage.StoredObject;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Leases kept with the table, in its own storage (local disk or S3), so every run of the table sees
 * the same lease whatever its work directory or machine. The lease is a sequence of small JSON
 * records under {@value #DIRECTORY} below the table root ({@code _}-prefixed, so Delta readers and
 * every vacuum, ours included, leave it alone), named {@code lease-<20-digit generation>.json}.
 *
 * <p>Each record is created with {@link Storage#putIfAbsent} (a hard link locally, {@code
 * If-None-Match: *} on S3), the only atomic primitive both stores offer. The highest generation is
 * the table's lease: held by its owner until its {@code expires_at} unless its state is {@code
 * released}. Taking (a free, released or expired lease), renewing and releasing each create the
 * next generation; of two runs creating the same generation exactly one succeeds, and the loser
 * reads the winner. After a successful create the writer lists again and counts the lease as its
 * own only if its generation is still the highest: older generations are deleted best effort, so a
 * writer slow enough to re-create a deleted old name sees a higher one and loses. The highest
 * generation is never deleted, so generations only grow. Fencing ({@link #holds}) asks whether the
 * highest generation is still the caller's.
 *
 * <p>A run killed while holding the lease leaves its record; it blocks the table until it expires.
 */
public final class TableLeaseStore implements LeaseStore {

  /** Where lease records live, relative to the table root. */
  public static final String DIRECTORY = TableKeys.COMPACTOR_DIRECTORY + "/leases";

  private static final System.Logger LOG = System.getLogger(TableLeaseStore.class.getName());
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern NAME = Pattern.compile("lease-(\\d{20})\\.json");
  private static final String HELD = "held";
  private static final String RELEASED = "released";

  /** Rounds of read-then-create before giving up on a table that keeps changing under us. */
  private static final int ATTEMPTS = 20;

  private final Function<TableLocation, Storage> storages;
  private final Map<String, Storage> opened = new ConcurrentHashMap<>();

  /**
   * @param storages the storage a table lives on (each asked once per table and kept)
   */
  public TableLeaseStore(Function<TableLocation, Storage> storages) {
    this.storages = storages;
  }

  /** One lease record as stored. */
  private record Entry(long generation, Lease lease, String state) {

    boolean blocks(String owner, Instant now) {
      return state.equals(HELD) && !lease.hasExpiredAt(now) && !lease.owner().equals(owner);
    }

    boolean isHeldBy(String owner) {
      return state.equals(HELD) && lease.owner().equals(owner);
    }
  }

  @Override
  public boolean writesWithTable() {
    return true;
  }

  @Override
  public LeaseAttempt tryAcquire(TableLocation table, String owner, Instant now, Duration ttl) {
    String doing = "taking the lease of " + table + " in " + directory(table);
    return retrying(
        doing,
        () -> {
          Optional<Entry> current = highest(table);
          if (current.isPresent() && current.get().blocks(owner, now)) {
            return Optional.of(LeaseAttempt.heldBy(current.get().lease()));
          }
          Instant acquired =
              current.filter(e -> e.isHeldBy(owner)).map(e -> e.lease().acquiredAt()).orElse(now);
          Lease lease =
              new Lease(
                  TableKeys.compactionKey(table), table.uri(), owner, acquired, now.plus(ttl));
          return create(table, next(current), lease, HELD).map(e -> LeaseAttempt.acquired(lease));
        });
  }

  @Override
  public Optional<Lease> renew(Lease lease, Instant now, Duration ttl) {
    TableLocation table = new TableLocation(lease.tableUri());
    return retrying(
        "renewing the lease of " + table + " in " + directory(table),
        () -> {
          Optional<Entry> current = highest(table);
          if (current.isEmpty()) {
            return Optional.empty(); // a listing that raced a newer record's writer: read again
          }
          if (!current.get().isHeldBy(lease.owner())) {
            return Optional.of(Optional.<Lease>empty());
          }
          // Never shortened: the items of a fan-out run renew one lease side by side, and a renewal
          // that waited (its `now` older) must not pull back the expiry a later one wrote.
          Instant until = now.plus(ttl);
          Instant written = current.get().lease().expiresAt();
          Lease renewed =
              new Lease(
                  lease.key(),
                  lease.tableUri(),
                  lease.owner(),
                  current.get().lease().acquiredAt(),
                  written.isAfter(until) ? written : until);
          return create(table, next(current), renewed, HELD).map(e -> Optional.of(renewed));
        });
  }

  @Override
  public boolean holds(Lease lease, Instant now) {
    TableLocation table = new TableLocation(lease.tableUri());
    return retrying(
        "checking the lease of " + table + " in " + directory(table),
        () ->
            // No record at all while checking a lease that was taken: a listing that raced a newer
            // record's writer (read again), as in renew.
            highest(table).map(e -> e.isHeldBy(lease.owner()) && !e.lease().hasExpiredAt(now)));
  }

  @Override
  public void release(Lease lease) {
    TableLocation table = new TableLocation(lease.tableUri());
    retrying(
        "releasing the lease of " + table + " in " + directory(table),
        () -> {
          Optional<Entry> current = highest(table);
          if (current.isEmpty() || !current.get().isHeldBy(lease.owner())) {
            return Optional.of(Boolean.FALSE);
          }
          return create(table, next(current), current.get().lease(), RELEASED)
              .map(e -> Boolean.TRUE);
        });
  }

  @Override
  public String describe() {
    return "table:<table root>/" + DIRECTORY;
  }

  private interface Round<T> {
    /** The answer, or empty to read again (another writer got in first). */
    Optional<T> attempt() throws IOException;
  }

  private static <T> T retrying(String doing, Round<T> round) {
    try {
      for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
        Optional<T> answer = round.attempt();
        if (answer.isPresent()) {
          return answer.get();
        }
      }
    } catch (IOException | RuntimeException e) {
      if (e instanceof company.data.compactor.error.CompactorException ce) {
        throw ce;
      }
      throw Errors.operationFailed(doing, e);
    }
    throw Errors.operationFailed(
        doing,
        new IllegalStateException(
            "other runs changed the lease " + ATTEMPTS + " times while this one tried"));
  }

  private static long next(Optional<Entry> current) {
    return current.map(Entry::generation).orElse(0L) + 1;
  }

  /**
   * Creates generation {@code generation}; the entry when it is now the highest, empty when another
   * writer created it first or a higher one exists (read again).
   */
  private Optional<Entry> create(TableLocation table, long generation, Lease lease, String state)
      throws IOException {
    Storage storage = storage(table);
    String path = path(table, generation);
    ObjectNode node =
        JSON.createObjectNode()
            .put("generation", generation)
            .put("table_uri", lease.tableUri())
            .put("owner", lease.owner())
            .put("acquired_at", lease.acquiredAt().toString())
            .put("expires_at", lease.expiresAt().toString())
            .put("state", state);
    if (!storage.putIfAbsent(path, JSON.writeValueAsBytes(node))) {
      return Optional.empty();
    }
    List<StoredObject> records = records(table);
    long highest = records.isEmpty() ? 0 : generation(records.get(records.size() - 1));
    if (highest != generation) {
      // A slow write re-created a deleted old name; the higher generation stands.
      deleteQuietly(storage, List.of(path));
      return Optional.empty();
    }
    List<String> older =
        records.stream().filter(r -> generation(r) < generation).map(StoredObject::path).toList();
    deleteQuietly(storage, older);
    return Optional.of(new Entry(generation, lease, state));
  }

  private static void deleteQuietly(Storage storage, List<String> paths) {
    if (paths.isEmpty()) {
      return;
    }
    try {
      storage.deleteAll(paths);
    } catch (IOException | RuntimeException e) {
      // Old generations only take space; the next change deletes them again.
      LOG.log(Level.DEBUG, "old lease records not deleted: {0}: {1}", paths, e.getMessage());
    }
  }

  /**
   * The highest generation's record; empty when the table never had a lease, or when the listing
   * raced another writer: a directory listing can see only the older record, which that writer
   * deletes (once its newer one exists) before the listing reads the older one's attributes.
   */
  private Optional<Entry> highest(TableLocation table) throws IOException {
    List<StoredObject> records = records(table);
    if (records.isEmpty()) {
      return Optional.empty();
    }
    StoredObject top = records.get(records.size() - 1);
    JsonNode node;
    try (InputStream in = storage(table).openFrom(top.path(), 0)) {
      node = JSON.readTree(in);
    } catch (FileNotFoundException e) {
      // Deleted as an older generation between the listing and the read: a newer one exists.
      return highestAfterRace(table, top);
    } catch (com.fasterxml.jackson.core.JacksonException e) {
      return Optional.of(unreadable(table, top, e.getOriginalMessage()));
    }
    try {
      String owner = node.path("owner").asText();
      if (owner.isEmpty()) {
        throw new IllegalArgumentException("no owner");
      }
      return Optional.of(
          new Entry(
              generation(top),
              new Lease(
                  TableKeys.compactionKey(table),
                  node.path("table_uri").asText(table.uri()),
                  owner,
                  Instant.parse(node.path("acquired_at").asText()),
                  Instant.parse(node.path("expires_at").asText())),
              node.path("state").asText(HELD).toLowerCase(Locale.ROOT)));
    } catch (RuntimeException e) {
      return Optional.of(unreadable(table, top, e.getMessage()));
    }
  }

  /**
   * A top record that cannot be read (not written by this store, or damaged): it holds the table as
   * a lease would, from its modification time for {@link Leases#DEFAULT_TTL}, so a damaged record
   * never blocks a table for good; the holder's name says which file it is.
   */
  private static Entry unreadable(TableLocation table, StoredObject top, String why) {
    Instant written = Instant.ofEpochMilli(top.modificationTimeMillis());
    LOG.log(
        Level.WARNING,
        "unreadable lease record {0} ({1}): it holds the table until {2}",
        top.path(),
        why,
        written.plus(Leases.DEFAULT_TTL));
    return new Entry(
        generation(top),
        new Lease(
            TableKeys.compactionKey(table),
            table.uri(),
            "an unreadable lease record "
                + top.path()
                + " (delete it if no run is working on the table)",
            written,
            written.plus(Leases.DEFAULT_TTL)),
        HELD);
  }

  private Optional<Entry> highestAfterRace(TableLocation table, StoredObject vanished)
      throws IOException {
    List<StoredObject> records = records(table);
    if (!records.isEmpty() && generation(records.get(records.size() - 1)) > generation(vanished)) {
      return highest(table);
    }
    throw new FileNotFoundException(
        "lease record " + vanished.path() + " vanished and no newer one appeared");
  }

  /** Lease records sorted by generation (names sort so: 20 digits, zero-padded). */
  private List<StoredObject> records(TableLocation table) throws IOException {
    try {
      return storage(table).listFrom(directory(table) + "/lease-").stream()
          .filter(o -> NAME.matcher(o.name()).matches() && plausibleGeneration(o))
          .toList();
    } catch (FileNotFoundException e) {
      return List.of();
    }
  }

  /**
   * Generations this store can have written and still count on from: names beyond {@value
   * #MAX_GENERATION} (planted, or past {@code long}) are not lease records and are ignored.
   */
  private static boolean plausibleGeneration(StoredObject record) {
    var matcher = NAME.matcher(record.name());
    if (!matcher.matches()) {
      return false;
    }
    try {
      return Long.parseLong(matcher.group(1)) <= MAX_GENERATION;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /** The highest generation counted (a run renewing every second would take 30 billion years). */
  static final long MAX_GENERATION = 1_000_000_000_000_000_000L;

  private static long generation(StoredObject record) {
    var matcher = NAME.matcher(record.name());
    if (!matcher.matches()) {
      throw new IllegalArgumentException("not a lease record: " + record.path());
    }
    return Long.parseLong(matcher.group(1));
  }

  private Storage storage(TableLocation table) {
    return opened.computeIfAbsent(table.uri(), uri -> storages.apply(table));
  }

  private static String directory(TableLocation table) {
    return table.child(DIRECTORY);
  }

  private static String path(TableLocation table, long generation) {
    return directory(table) + String.format(Locale.ROOT, "/lease-%020d.json", generation);
  }
}
