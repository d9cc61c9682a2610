package company.data.compactor.lease;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.model.TableLocation;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.storage.StoredObject;
import company.data.compactor.testing.ForwardingStorage;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A listing of the lease records that races another item of the same run can come back empty: it
 * saw only the older record, deleted by that item (once its newer one existed) before the listing
 * read its attributes. Renewing and checking a held lease read again instead of taking the empty
 * listing for "no lease" (which fenced a fan-out item of a run that still held its lease).
 */
class LeaseListingRaceTest {

  @TempDir Path root;

  /** Local storage whose next {@code emptyListings} listings of lease records come back empty. */
  private static final class RacingListings extends ForwardingStorage {
    final AtomicInteger emptyListings = new AtomicInteger();

    RacingListings() {
      super(new LocalStorage());
    }

    @Override
    public List<StoredObject> listFrom(String path) throws IOException {
      if (path.endsWith("/lease-") && emptyListings.getAndDecrement() > 0) {
        return List.of();
      }
      return super.listFrom(path);
    }
  }

  @Test
  void renewAndHolds_readAgain_whenAListingRacesAnotherWriter() {
    RacingListings storage = new RacingListings();
    TableLeaseStore store = new TableLeaseStore(location -> storage);
    TableLocation table = TableLocation.parse(root.resolve("table").toString(), root);
    Instant now = Instant.now();
    Lease lease =
        store.tryAcquire(table, "run-1", now, Duration.ofMinutes(1)).acquired().orElseThrow();

    storage.emptyListings.set(1);
    assertThat(store.renew(lease, now, Duration.ofMinutes(2))).isPresent();
    storage.emptyListings.set(1);
    assertThat(store.holds(lease, now)).isTrue();
  }
}
