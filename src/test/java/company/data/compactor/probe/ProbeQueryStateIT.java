package company.data.compactor.probe;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.model.PartitionValues;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.LocalStorage;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A probe query is validated only to start with SELECT and hold no ';', yet a SELECT can change the
 * database's global state: {@code enable_logging()} is a table function that turns on DuckDB's
 * database-wide log. With a database per pass every pass started with logging off; with one
 * database per measurement, the warm-up pass's query leaves logging on for every timed pass after
 * it, so the timed passes no longer read as a fresh reader would and their answer differs.
 */
class ProbeQueryStateIT {

  /** Log entries seen when the pass starts (a fresh reader: none), then logging on, then rows. */
  private static final String QUERY =
      "SELECT (SELECT count(*) FROM duckdb_logs()),"
          + " (SELECT count(*) FROM enable_logging()),"
          + " count(*) FROM t";

  @TempDir Path work;

  @Test
  void aQueryThatChangesGlobalState_doesNotCarryIntoLaterPasses() {
    DemoSample demo = DemoSample.seed(work);
    LocalStorage local = demo.local();
    TableSnapshot snapshot = demo.snapshot();
    List<PartitionValues> partitions = demo.partitions();
    ProbeSettings settings =
        new ProbeSettings(QUERY, 3, 3, 16, 64, 128L * 1024 * 1024, 10.0, 600_000);
    StorageReadProbe probe = new StorageReadProbe(local, settings, work.resolve("probe"));

    ProbeResult before = probe.before(snapshot, partitions, 0, 0);

    assertThat(before.measured()).as(before.skipReason()).isTrue();
    assertThat(before.runsMs()).hasSize(3);
    assertThat(before.result())
        .as("the last timed pass starts as a fresh reader: no log entries, logging just enabled")
        .isEqualTo("0,0,1500");
  }
}
