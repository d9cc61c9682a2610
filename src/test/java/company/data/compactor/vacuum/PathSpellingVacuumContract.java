package company.data.compactor.vacuum;

import static company.data.compactor.testing.HandLoggedTables.add;
import static company.data.compactor.testing.HandLoggedTables.commit;
import static company.data.compactor.testing.HandLoggedTables.dataFile;
import static company.data.compactor.testing.HandLoggedTables.protocolAndMetadata;
import static company.data.compactor.testing.HandLoggedTables.remove;
import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.delta.kernel.KernelDeltaTables;
import company.data.compactor.delta.kernel.KernelLogReader;
import company.data.compactor.delta.kernel.KernelRewriteCommitter;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.Storage;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A log may name a file inside the root by any spelling of the root's scheme ({@code s3a://},
 * {@code S3://}, {@code FILE:/}); vacuum must see it as the very file storage lists, so an active
 * file is never a candidate, in either mode. Run against local and S3 storage.
 */
abstract class PathSpellingVacuumContract {

  private static final long NOW = System.currentTimeMillis();

  /** Thirty days on: every file and tombstone is older than the 168 h cutoff. */
  private final Clock later = Clock.offset(Clock.systemUTC(), Duration.ofDays(30));

  /** The storage the table lives on. */
  abstract Storage storage();

  /** A fresh, empty table location on {@link #storage()}. */
  abstract TableLocation newTable() throws Exception;

  /**
   * Absolute spellings, of {@code name} under {@code table}, that readers accept for the root's
   * scheme.
   */
  abstract List<String> spellings(TableLocation table, String name);

  private VacuumResult vacuum(TableLocation table, VacuumMode mode) {
    TableSnapshot snapshot = new KernelDeltaTables(storage()).loadLatest(table);
    return new VacuumExecutor(
            storage(),
            new KernelLogReader(storage()),
            new KernelRewriteCommitter(storage(), later),
            new VacuumPlanner(later))
        .vacuum(snapshot, mode, 168, false);
  }

  private String spelling(TableLocation table, int index) {
    return spellings(table, "a.parquet").get(index);
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2})
  void full_neverDeletesAnActiveFile_whateverSpellingOfTheRootTheLogUses(int index)
      throws Exception {
    TableLocation table = newTable();
    String logged = spelling(table, index);
    dataFile(storage(), table, "a.parquet");
    dataFile(storage(), table, "b.parquet");
    commit(
        storage(),
        table,
        0,
        NOW,
        Stream.concat(Stream.of(protocolAndMetadata()), Stream.of(add(logged), add("b.parquet")))
            .toArray(String[]::new));

    VacuumResult result = vacuum(table, VacuumMode.FULL);

    assertThat(result.plan().candidates()).as("logged as %s", logged).isEmpty();
    assertThat(storage().stat(table.child("a.parquet")).sizeBytes()).isPositive();
    TableSnapshot after = new KernelDeltaTables(storage()).loadLatest(table);
    assertThat(after.activeFiles())
        .extracting(DataFile::path)
        .as("one spelling leaves the adapter: the listing's")
        .containsExactlyInAnyOrder(table.child("a.parquet"), table.child("b.parquet"));
    assertThat(after.activeFiles())
        .extracting(DataFile::logPath)
        .as("the logged form is kept for removes")
        .containsExactlyInAnyOrder(logged, "b.parquet");
    for (DataFile file : after.activeFiles()) {
      assertThat(storage().stat(file.path()).sizeBytes())
          .as("%s still readable", file.path())
          .isPositive();
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2})
  void lite_neverDeletesAFileReAddedUnderAnotherSpelling_afterAnExpiredRemoval(int index)
      throws Exception {
    TableLocation table = newTable();
    String logged = spelling(table, index);
    dataFile(storage(), table, "a.parquet");
    commit(
        storage(),
        table,
        0,
        NOW,
        Stream.concat(Stream.of(protocolAndMetadata()), Stream.of(add("a.parquet")))
            .toArray(String[]::new));
    commit(storage(), table, 1, NOW + 1, remove("a.parquet", NOW + 1));
    commit(storage(), table, 2, NOW + 2, add(logged));

    VacuumResult result = vacuum(table, VacuumMode.LITE);

    assertThat(result.plan().candidates()).as("re-added as %s", logged).isEmpty();
    assertThat(storage().stat(table.child("a.parquet")).sizeBytes()).isPositive();
    assertThat(new KernelDeltaTables(storage()).loadLatest(table).activeFiles())
        .extracting(DataFile::path)
        .containsExactly(table.child("a.parquet"));
  }
}
