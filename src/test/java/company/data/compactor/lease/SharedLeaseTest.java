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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fan-out run's lease, shared by its items ({@link Leases.OnExit#KEEP}): kept after each item,
 * renewed by several items at once without anyone losing it, and fencing unchanged once another run
 * has taken it over.
 */
class SharedLeaseTest {

  // Long enough for three heartbeats on a loaded 2-core CI machine (600 ms once let all stall).
  private static final Duration TTL = Duration.ofMillis(1500);

  @TempDir Path root;

  private final LeaseStore store = new TableLeaseStore(location -> new LocalStorage());
  private final Leases leases = new Leases(store, Clock.systemUTC(), TTL);

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private TableLocation table() {
    return TableLocation.parse(root.resolve("table").toString(), root);
  }

  @Test
  void itemsOfOneRun_holdTheLeaseTogether_andLeaveItHeld() throws Exception {
    TableLocation table = table();
    Lease lease = leases.take(table, "run-1");
    ExecutorService pool = Executors.newFixedThreadPool(3);
    List<Future<Leases.Held<String>>> items = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      int item = i;
      items.add(
          pool.submit(
              () ->
                  leases.hold(
                      leases.resume(lease),
                      Leases.OnExit.KEEP,
                      guard -> {
                        for (int beat = 0; beat < 4; beat++) {
                          sleep(TTL.toMillis() / 2);
                          guard.assertHeld();
                        }
                        return "item " + item;
                      })));
    }
    pool.shutdown();
    for (Future<Leases.Held<String>> item : items) {
      Leases.Held<String> held = item.get();
      assertThat(held.lost()).isEmpty();
      assertThat(held.releaseError()).isEmpty();
    }
    // Still the run's: another run is refused until Finalize releases it.
    assertThat(store.holds(lease, Instant.now())).isTrue();
    assertThatThrownBy(() -> leases.take(table, "run-2"))
        .isInstanceOf(CompactorException.class)
        .hasMessageContaining("run run-1 holds the table's lease");
    leases.hold(leases.resume(lease), guard -> "finalize");
    assertThat(leases.take(table, "run-2").owner()).isEqualTo("run-2");
  }

  @Test
  void anItemWhoseRunLostTheLease_isFencedBeforeItsCommit() throws Exception {
    TableLocation table = table();
    Lease lease = leases.take(table, "run-1");
    Thread.sleep(TTL.toMillis() + 100);
    leases.take(table, "run-2");

    assertThatThrownBy(() -> leases.resume(lease))
        .isInstanceOf(CompactorException.class)
        .hasMessageContaining("that run no longer holds the table's lease");
    // An item that held it when it started and lost it mid-way: refused at its commit.
    assertThatThrownBy(
            () ->
                leases.hold(
                    lease,
                    Leases.OnExit.KEEP,
                    guard -> {
                      guard.assertHeld();
                      return "committed";
                    }))
        .isInstanceOf(CompactorException.class)
        .hasMessageContaining("fenced");
    assertThat(
            store.holds(
                new Lease(
                    lease.key(),
                    lease.tableUri(),
                    "run-2",
                    lease.acquiredAt(),
                    Instant.now().plusSeconds(60)),
                Instant.now()))
        .isTrue();
  }
}
