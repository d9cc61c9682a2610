package company.data.compactor.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import company.data.compactor.error.CompactorException;
import company.data.compactor.model.TableLocation;
import company.data.compactor.storage.LocalStorage;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lease helper with real time and the table store on local disk: a heartbeat keeps a run's
 * lease past its TTL, and a run whose lease was taken over is told so before it commits.
 */
class LeasesTest {

  private static final Duration TTL = Duration.ofMillis(600);

  @TempDir Path root;

  private final LeaseStore store = new TableLeaseStore(location -> new LocalStorage());
  private final Leases leases = new Leases(store, Clock.systemUTC(), TTL);

  private TableLocation table() {
    return TableLocation.parse(root.resolve("table").toString(), root);
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Test
  void aRunLongerThanItsTtl_keepsItsLease_byHeartbeat_andReleasesItAtTheEnd() {
    TableLocation table = table();
    Lease lease = leases.take(table, "long-run");
    List<String> holdersSeen = new ArrayList<>();

    Leases.Held<String> held =
        leases.hold(
            lease,
            guard -> {
              for (int i = 0; i < 8; i++) {
                sleep(TTL.toMillis() / 2);
                LeaseAttempt other = store.tryAcquire(table, "intruder", Instant.now(), TTL);
                holdersSeen.add(other.heldBy().map(Lease::owner).orElse("taken by intruder"));
                guard.assertHeld();
              }
              return "done";
            });

    assertThat(holdersSeen).hasSize(8).containsOnly("long-run");
    assertThat(held.value()).isEqualTo("done");
    assertThat(held.releaseError()).isEmpty();
    assertThat(held.lost()).isEmpty();
    assertThat(store.tryAcquire(table, "next-run", Instant.now(), TTL).succeeded()).isTrue();
  }

  @Test
  void aLeaseTakenOverMidRun_failsTheGuard_namingTheFencing_andTheHeldResultSaysLost() {
    TableLocation table = table();
    Lease lease = leases.take(table, "slow-run");
    List<String> refusals = new ArrayList<>();

    Leases.Held<String> held =
        leases.hold(
            lease,
            guard -> {
              guard.assertHeld();
              // Another run takes the lease over as if it had expired (its clock is past expiry).
              store
                  .tryAcquire(table, "other-run", Instant.now().plus(TTL).plus(TTL), TTL)
                  .acquired()
                  .orElseThrow();
              try {
                guard.assertHeld();
              } catch (CompactorException e) {
                refusals.add(e.getMessage());
              }
              return "stopped";
            });

    assertThat(refusals)
        .singleElement()
        .asString()
        .startsWith("Refused to commit to " + table.uri() + " for run slow-run: ")
        .contains("(fenced)");
    assertThat(held.lost()).isPresent();
    assertThat(store.tryAcquire(table, "third-run", Instant.now(), TTL).heldBy())
        .as("releasing a lost lease leaves the new holder's alone")
        .hasValueSatisfying(l -> assertThat(l.owner()).isEqualTo("other-run"));
  }

  @Test
  void withoutAHeartbeat_theLeaseWouldExpire_soTheTtlIsReallyShort() {
    TableLocation table = table();
    store.tryAcquire(table, "no-heartbeat", Instant.now(), TTL).acquired().orElseThrow();

    sleep(TTL.toMillis() * 2);

    assertThat(store.tryAcquire(table, "intruder", Instant.now(), TTL).succeeded()).isTrue();
  }

  @Test
  void aResumedLeaseAlreadyReleased_isRefused() {
    TableLocation table = table();
    Lease lease = leases.take(table, "handoff-run");
    leases.hold(lease, guard -> "done");

    assertThatThrownBy(() -> leases.resume(lease))
        .isInstanceOf(CompactorException.class)
        .hasMessageContaining("that run no longer holds the table's lease");
  }
}
