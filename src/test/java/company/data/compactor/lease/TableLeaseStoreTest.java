package company.data.compactor.lease;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.model.TableLocation;
import company.data.compactor.storage.LocalStorage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The lease contract for leases kept with the table, on local disk. */
class TableLeaseStoreTest extends LeaseStoreContract {

  private static final Instant T0 = Instant.parse("2026-11-30T02:00:00Z");
  private static final Duration TTL = Duration.ofMinutes(20);

  @TempDir Path root;

  @Override
  protected LeaseStore newStore() {
    return new TableLeaseStore(location -> new LocalStorage());
  }

  @Override
  protected TableLocation table() {
    return TableLocation.parse(root.resolve("t-" + UUID.randomUUID()).toString(), root);
  }

  private static List<String> records(TableLocation table) throws IOException {
    Path dir = table.localPath().resolve(TableLeaseStore.DIRECTORY);
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(f -> f.getFileName().toString()).sorted().toList();
    }
  }

  /**
   * Fan-out items renew one lease side by side: a renewal that waited (its clock reading older) is
   * written after a later one. It must not pull the expiry back, or the lease could lapse while
   * every item still works.
   */
  @Test
  void aDelayedRenewal_neverShortensTheLease() {
    LeaseStore store = newStore();
    TableLocation table = table();
    Lease lease = store.tryAcquire(table, "run-a", T0, TTL).acquired().orElseThrow();

    store.renew(lease, T0.plusSeconds(300), TTL).orElseThrow();
    Lease late = store.renew(lease, T0.plusSeconds(100), TTL).orElseThrow();

    assertThat(late.expiresAt()).isEqualTo(T0.plusSeconds(300).plus(TTL));
    assertThat(store.holds(lease, T0.plusSeconds(100).plus(TTL).plusSeconds(1))).isTrue();
  }

  @Test
  void theLease_isASequenceOfGenerations_underTheHiddenPrefix_keepingOnlyTheNewest()
      throws Exception {
    LeaseStore store = newStore();
    TableLocation table = table();

    Lease lease = store.tryAcquire(table, "run-a", T0, TTL).acquired().orElseThrow();
    Lease renewed = store.renew(lease, T0.plusSeconds(60), TTL).orElseThrow();
    store.release(renewed);

    assertThat(records(table)).containsExactly("lease-00000000000000000003.json");
    assertThat(
            Files.readString(
                table
                    .localPath()
                    .resolve(TableLeaseStore.DIRECTORY)
                    .resolve("lease-00000000000000000003.json")))
        .contains("\"owner\":\"run-a\"")
        .contains("\"state\":\"released\"");
  }

  private static Path plant(TableLocation table, String name, String content, Instant modified)
      throws IOException {
    Path dir = Files.createDirectories(table.localPath().resolve(TableLeaseStore.DIRECTORY));
    Path file = Files.writeString(dir.resolve(name), content);
    Files.setLastModifiedTime(file, java.nio.file.attribute.FileTime.from(modified));
    return file;
  }

  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(
      strings = {"garbage", "", "{}", "[1]", "{\"owner\":\"x\",\"expires_at\":\"soon\"}"})
  void anUnreadableTopRecord_holdsTheTableForOneDefaultTtl_namingTheFile(String content)
      throws Exception {
    LeaseStore store = newStore();
    TableLocation table = table();
    Path record = plant(table, "lease-00000000000000000007.json", content, T0);

    LeaseAttempt early =
        store.tryAcquire(table, "run-a", T0.plus(Leases.DEFAULT_TTL).minusSeconds(1), TTL);
    LeaseAttempt later = store.tryAcquire(table, "run-a", T0.plus(Leases.DEFAULT_TTL), TTL);

    assertThat(early.succeeded()).isFalse();
    assertThat(early.heldBy().orElseThrow().owner())
        .isEqualTo(
            "an unreadable lease record "
                + LocalStorage.toStoragePath(record)
                + " (delete it if no run is working on the table)");
    assertThat(later.succeeded()).as("then it has expired like any lease").isTrue();
    assertThat(records(table)).containsExactly("lease-00000000000000000008.json");
  }

  @Test
  void recordsNamedPastTheLastGeneration_areNotLeases() throws Exception {
    LeaseStore store = newStore();
    TableLocation table = table();
    plant(table, "lease-09223372036854775807.json", "{}", T0);
    plant(table, "lease-99999999999999999999.json", "{}", T0);

    LeaseAttempt attempt = store.tryAcquire(table, "run-a", T0, TTL);

    assertThat(attempt.succeeded()).isTrue();
    assertThat(records(table))
        .contains("lease-00000000000000000001.json")
        .contains("lease-09223372036854775807.json", "lease-99999999999999999999.json");
  }

  @Test
  void aRecordSlowlyRecreatedBelowTheNewest_neverTakesTheLease() throws Exception {
    LeaseStore store = newStore();
    TableLocation table = table();
    Lease holder = store.tryAcquire(table, "run-a", T0, TTL).acquired().orElseThrow();
    store.renew(holder, T0.plusSeconds(1), TTL).orElseThrow();
    store.renew(holder, T0.plusSeconds(2), TTL).orElseThrow();
    // A slow writer that read generation 1 (before it expired) re-creates the deleted name 2.
    Path stale =
        table
            .localPath()
            .resolve(TableLeaseStore.DIRECTORY)
            .resolve("lease-00000000000000000002.json");
    Files.writeString(
        stale,
        "{\"generation\":2,\"table_uri\":\""
            + table.uri()
            + "\",\"owner\":\"run-slow\",\"acquired_at\":\"2026-11-30T02:00:00Z\","
            + "\"expires_at\":\"2026-11-30T03:00:00Z\",\"state\":\"held\"}");

    assertThat(store.holds(holder, T0.plusSeconds(3))).isTrue();
    assertThat(
            store.tryAcquire(table, "run-b", T0.plusSeconds(3), TTL).heldBy().orElseThrow().owner())
        .isEqualTo("run-a");
  }

  @Test
  void holds_isFalse_onceAnotherRunTookTheExpiredLeaseOver() {
    LeaseStore store = newStore();
    TableLocation table = table();
    Lease lease = store.tryAcquire(table, "run-a", T0, TTL).acquired().orElseThrow();

    assertThat(store.holds(lease, T0.plusSeconds(1))).isTrue();
    store.tryAcquire(table, "run-b", T0.plus(TTL), TTL).acquired().orElseThrow();

    assertThat(store.holds(lease, T0.plus(TTL).plusSeconds(1))).isFalse();
  }
}
