package company.data.compactor.probe;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.model.PartitionValues;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.storage.Storage;
import company.data.compactor.testing.ForwardingStorage;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each pass of the probe reads as a fresh reader: DuckDB's caches of file data and Parquet metadata
 * are off, and the pass sees only its own view of the sample, so no pass reads what an earlier one
 * cached. The query here is not the default, so each pass has a database of its own (the default
 * query's passes share one: {@link ProbeReadersTest}).
 */
class ProbeReaderIT {

  /** What a pass sees of DuckDB: its caches' settings and contents, the views, and the rows. */
  private static final String QUERY =
      "SELECT current_setting('enable_external_file_cache'),"
          + " current_setting('parquet_metadata_cache'),"
          + " (SELECT count(*) FROM duckdb_external_file_cache()),"
          + " (SELECT count(*) FROM duckdb_views() WHERE NOT internal),"
          + " count(*) FROM t";

  @TempDir Path work;

  /** The local table read as from an object store: each pass downloads the sample. */
  private static final class ObjectStore extends ForwardingStorage {
    ObjectStore() {
      super(new LocalStorage());
    }

    @Override
    public Optional<Path> localFile(String path) {
      return Optional.empty();
    }
  }

  @Test
  void inPlace_everyPassReadsWithCachesOff_andSeesOnlyItsOwnView() {
    ProbeResult before = probe(new LocalStorage());

    assertThat(before.readMethod()).isEqualTo(ReadMethod.IN_PLACE);
    assertFreshReader(before);
  }

  @Test
  void downloaded_everyPassReadsWithCachesOff_andSeesOnlyItsOwnView() {
    ProbeResult before = probe(new ObjectStore());

    assertThat(before.readMethod()).isEqualTo(ReadMethod.DOWNLOAD);
    assertFreshReader(before);
  }

  private ProbeResult probe(Storage storage) {
    DemoSample demo = DemoSample.seed(work);
    TableSnapshot snapshot = demo.snapshot();
    List<PartitionValues> partitions = demo.partitions();
    ProbeSettings settings =
        new ProbeSettings(QUERY, 3, 3, 16, 64, 128L * 1024 * 1024, 10.0, 600_000);
    StorageReadProbe probe = new StorageReadProbe(storage, settings, work.resolve("probe"));

    ProbeResult before = probe.before(snapshot, partitions, 0, 0);
    assertThat(before.measured()).as(before.skipReason()).isTrue();
    assertThat(before.runsMs()).hasSize(3);
    ProbeResult after = probe.after(snapshot, partitions, before);
    assertThat(after.result())
        .as("the measurement after reads the same way")
        .isEqualTo(before.result());
    return before;
  }

  private static void assertFreshReader(ProbeResult result) {
    assertThat(result.result())
        .as(
            "the last of three timed passes: external file cache off, Parquet metadata cache off,"
                + " nothing in the file cache, one view (its own), and the 30 files' 1500 rows")
        .isEqualTo("false,false,0,1,1500");
  }
}
