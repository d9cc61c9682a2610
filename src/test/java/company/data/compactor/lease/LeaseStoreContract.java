package company.data.compactor.lease;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.model.TableLocation;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * What every {@link LeaseStore} must do; run against DynamoDB (Dynoxide), the table store on local
 * disk and on S3 (S3Proxy), and the file stand-in of the handler tests.
 */
public abstract class LeaseStoreContract {

  private static final Instant T0 = Instant.parse("2026-11-30T02:00:00Z");
  private static final Duration TTL = Duration.ofMinutes(20);

  /** A fresh, empty store. */
  protected abstract LeaseStore newStore();

  /** A table no test used before; stores that keep leases with the table need a real location. */
  protected TableLocation table() {
    return TableLocation.parse("s3://bucket/tables/" + UUID.randomUUID(), Path.of("/"));
  }

  @Test
  void tryAcquire_onAFreeTable_succeeds_andASecondOwnerIsToldWhoHoldsIt() {
    LeaseStore store = newStore();
    TableLocation table = table();

    LeaseAttempt first = store.tryAcquire(table, "run-a", T0, TTL);
    LeaseAttempt second = store.tryAcquire(table, "run-b", T0.plusSeconds(60), TTL);

    assertThat(first.succeeded()).isTrue();
    assertThat(first.acquired().orElseThrow().expiresAt()).isEqualTo(T0.plus(TTL));
    assertThat(second.succeeded()).isFalse();
    Lease holder = second.heldBy().orElseThrow();
    assertThat(holder.owner()).isEqualTo("run-a");
    assertThat(holder.tableUri()).isEqualTo(table.uri());
    assertThat(holder.expiresAt()).isEqualTo(T0.plus(TTL));
  }

  @Test
  void release_freesTheTable_forTheNextRun() {
    LeaseStore store = newStore();
    TableLocation table = table();
    Lease lease = store.tryAcquire(table, "run-a", T0, TTL).acquired().orElseThrow();

    store.release(lease);

    assertThat(store.tryAcquire(table, "run-b", T0.plusSeconds(1), TTL).succeeded()).isTrue();
  }

  @Test
  void anExpiredLease_isTakenOver_andItsOldOwnerCanNeitherRenewNorReleaseIt() {
    LeaseStore store = newStore();
    TableLocation table = table();
    Lease stale = store.tryAcquire(table, "run-a", T0, TTL).acquired().orElseThrow();

    LeaseAttempt takeover = store.tryAcquire(table, "run-b", T0.plus(TTL), TTL);
    store.release(stale);

    assertThat(takeover.succeeded()).isTrue();
    assertThat(store.renew(stale, T0.plus(TTL).plusSeconds(1), TTL)).isEmpty();
    assertThat(
            store
                .tryAcquire(table, "run-c", T0.plus(TTL).plusSeconds(2), TTL)
                .heldBy()
                .orElseThrow()
                .owner())
        .isEqualTo("run-b");
  }

  @Test
  void renew_byTheOwner_extendsTheLease_evenPastExpiryWhenNobodyTookIt() {
    LeaseStore store = newStore();
    TableLocation table = table();
    Lease lease = store.tryAcquire(table, "run-a", T0, TTL).acquired().orElseThrow();

    Lease renewed = store.renew(lease, T0.plus(TTL).plusSeconds(30), TTL).orElseThrow();

    assertThat(renewed.expiresAt()).isEqualTo(T0.plus(TTL).plusSeconds(30).plus(TTL));
    assertThat(store.tryAcquire(table, "run-b", T0.plus(TTL).plusSeconds(31), TTL).succeeded())
        .isFalse();
  }

  @Test
  void renew_afterRelease_isRefused_soADuplicateHandOffDoesNotRunTwice() {
    LeaseStore store = newStore();
    TableLocation table = table();
    Lease lease = store.tryAcquire(table, "run-a", T0, TTL).acquired().orElseThrow();
    store.release(lease);

    assertThat(store.renew(lease, T0.plusSeconds(5), TTL)).isEmpty();
  }

  @Test
  void leasesOfDifferentTables_doNotInterfere() {
    LeaseStore store = newStore();

    assertThat(store.tryAcquire(table(), "run-a", T0, TTL).succeeded()).isTrue();
    assertThat(store.tryAcquire(table(), "run-b", T0, TTL).succeeded()).isTrue();
  }

  @Test
  void racingOwners_exactlyOneWins() throws Exception {
    LeaseStore store = newStore();
    TableLocation table = table();
    int racers = 8;
    ExecutorService pool = Executors.newFixedThreadPool(racers);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<LeaseAttempt>> attempts = new ArrayList<>();
    try {
      for (int i = 0; i < racers; i++) {
        String owner = "run-" + i;
        Callable<LeaseAttempt> race =
            () -> {
              start.await();
              return store.tryAcquire(table, owner, T0, TTL);
            };
        attempts.add(pool.submit(race));
      }
      start.countDown();
      List<String> winners = new ArrayList<>();
      List<String> toldHolder = new ArrayList<>();
      for (Future<LeaseAttempt> f : attempts) {
        LeaseAttempt a = f.get();
        a.acquired().ifPresent(l -> winners.add(l.owner()));
        a.heldBy().ifPresent(l -> toldHolder.add(l.owner()));
      }
      assertThat(winners).hasSize(1);
      assertThat(toldHolder).hasSize(racers - 1).containsOnly(winners.get(0));
    } finally {
      pool.shutdownNow();
    }
  }
}
