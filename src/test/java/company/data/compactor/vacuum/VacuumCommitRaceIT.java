package company.data.compactor.vacuum;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import company.data.compactor.delta.kernel.KernelDeltaTables;
import company.data.compactor.delta.kernel.KernelLogReader;
import company.data.compactor.delta.kernel.KernelRewriteCommitter;
import company.data.compactor.error.CompactorException;
import company.data.compactor.lease.LeaseGuard;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.testing.HandLoggedTables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Adversarial: another writer commits while vacuum works from an older snapshot. A commit that adds
 * a path again (a RESTORE, a writer re-adding a file it kept) or adds an old file no commit ever
 * mentioned (full mode's untracked files), after the snapshot was loaded, must keep that file,
 * wherever the commit lands: before the log history was read, after the plan, or between {@code
 * VACUUM START} and the deletes. The other writer commits from inside the lease guard, which vacuum
 * asks before {@code VACUUM START} (question 1), before each batch of deletes (2) and before {@code
 * VACUUM END} (3).
 */
class VacuumCommitRaceIT {

  private static final long OLD = Instant.now().minus(Duration.ofDays(10)).toEpochMilli();

  private static final String CDC = "_change_data/cdc-9.parquet";

  @TempDir Path work;
  private final LocalStorage storage = new LocalStorage();
  private final KernelDeltaTables tables = new KernelDeltaTables(storage);
  private TableLocation table;

  interface Writer {
    void commit() throws IOException;
  }

  /**
   * v0 adds a.parquet and b.parquet; v1 removes a.parquet. c.parquet and a deletion-vector file are
   * under the root and in no commit. Everything is 10 days old: a lite vacuum deletes a.parquet, a
   * full one a.parquet, c.parquet and the deletion-vector file.
   */
  @BeforeEach
  void handLoggedTable() throws IOException {
    table = TableLocation.parse("t", work);
    String[] pm = HandLoggedTables.protocolAndMetadata();
    HandLoggedTables.commit(
        storage,
        table,
        0,
        OLD,
        "{\"protocol\":{\"minReaderVersion\":3,\"minWriterVersion\":7,\"readerFeatures\":[\"deletionVectors\"],"
            + "\"writerFeatures\":[\"deletionVectors\"]}}",
        pm[1].replace(
            "\"configuration\":{}", "\"configuration\":{\"delta.enableDeletionVectors\":\"true\"}"),
        HandLoggedTables.add("a.parquet"),
        HandLoggedTables.add("b.parquet"));
    HandLoggedTables.commit(storage, table, 1, OLD, HandLoggedTables.remove("a.parquet", OLD));
    for (String file : List.of("a.parquet", "b.parquet", "c.parquet", CDC)) {
      HandLoggedTables.dataFile(storage, table, file);
    }
    HandLoggedTables.dataFile(storage, table, DeletionVectorVacuumIT.DV2_FILE);
    try (Stream<Path> files = Files.walk(table.localPath())) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        Files.setLastModifiedTime(f, FileTime.fromMillis(OLD));
      }
    }
  }

  /**
   * A guard that stays held and lets the other writer commit when it is asked for the n-th time.
   */
  private static LeaseGuard commitsOnQuestion(int n, Writer writer) {
    AtomicInteger asked = new AtomicInteger();
    return () -> {
      if (asked.incrementAndGet() == n) {
        try {
          writer.commit();
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }
    };
  }

  private VacuumResult vacuum(TableSnapshot snapshot, VacuumMode mode, LeaseGuard guard) {
    Clock clock = Clock.systemUTC();
    return new VacuumExecutor(
            storage,
            new KernelLogReader(storage),
            new KernelRewriteCommitter(storage, clock),
            new VacuumPlanner(clock))
        .guardedBy(guard)
        .vacuum(snapshot, mode, 168, false);
  }

  private VacuumResult vacuum(VacuumMode mode, LeaseGuard guard) {
    return vacuum(tables.loadLatest(table), mode, guard);
  }

  /** The other writer's commit {@code version}: now, of {@code actions}. */
  private Writer other(long version, String... actions) {
    return () ->
        HandLoggedTables.commit(storage, table, version, System.currentTimeMillis(), actions);
  }

  private Path file(String name) {
    return table.localPath().resolve(name);
  }

  /** Every file the latest snapshot reads is still there. */
  private void everyActiveFileExists() {
    TableSnapshot latest = tables.loadLatest(table);
    for (DataFile f : latest.activeFiles()) {
      assertThat(file(f.logPath())).as(f.path()).exists();
    }
  }

  private static String addWithDeletionVector(String path) {
    return "{\"add\":{\"path\":\""
        + path
        + "\",\"partitionValues\":{},\"size\":8,\"modificationTime\":1,\"dataChange\":true,"
        + "\"deletionVector\":{\"storageType\":\"u\",\"pathOrInlineDv\":\""
        + DeletionVectorVacuumIT.DV2_Z85
        + "\",\"offset\":1,\"sizeInBytes\":34,\"cardinality\":1}}}";
  }

  // --- baselines: without another writer, these files are deleted -----------------------------

  @Test
  void baseline_lite_deletesTheExpiredTombstone() {
    VacuumResult result = vacuum(VacuumMode.LITE, LeaseGuard.UNGUARDED);

    assertThat(result.deletedFiles()).isEqualTo(1);
    assertThat(file("a.parquet")).doesNotExist();
    assertThat(file("b.parquet")).exists();
  }

  @Test
  void baseline_full_deletesTheTombstoneAndBothUntrackedFiles() {
    VacuumResult result = vacuum(VacuumMode.FULL, LeaseGuard.UNGUARDED);

    assertThat(result.deletedFiles()).isEqualTo(4);
    assertThat(file("a.parquet")).doesNotExist();
    assertThat(file(CDC)).doesNotExist();
    assertThat(file("c.parquet")).doesNotExist();
    assertThat(file(DeletionVectorVacuumIT.DV2_FILE)).doesNotExist();
    assertThat(file("b.parquet")).exists();
  }

  // --- another writer commits after the snapshot ------------------------------------------------

  @Test
  void lite_aReAddCommittedAfterThePlan_beforeVacuumStart_isKept() {
    VacuumResult result =
        vacuum(VacuumMode.LITE, commitsOnQuestion(1, other(2, HandLoggedTables.add("a.parquet"))));

    assertThat(file("a.parquet")).as("re-added by version 2 before VACUUM START").exists();
    assertThat(result.deletedFiles()).isZero();
    assertThat(result.startVersion()).isEqualTo(3);
    everyActiveFileExists();
  }

  @Test
  void lite_aReAddCommittedAfterVacuumStart_beforeTheDeletes_isKept() {
    VacuumResult result =
        vacuum(VacuumMode.LITE, commitsOnQuestion(2, other(3, HandLoggedTables.add("a.parquet"))));

    assertThat(file("a.parquet")).as("re-added by version 3, after VACUUM START").exists();
    assertThat(result.deletedFiles()).isZero();
    assertThat(result.startVersion()).isEqualTo(2);
    assertThat(result.endVersion()).isEqualTo(4);
    everyActiveFileExists();
  }

  @Test
  void full_anOldFileAddedAfterTheSnapshot_beforeTheHistoryIsRead_isKept() throws IOException {
    TableSnapshot snapshot = tables.loadLatest(table);
    other(2, HandLoggedTables.add("c.parquet")).commit();

    VacuumResult result = vacuum(snapshot, VacuumMode.FULL, LeaseGuard.UNGUARDED);

    assertThat(file("c.parquet")).as("added by version 2, after the snapshot").exists();
    assertThat(file("a.parquet")).doesNotExist();
    assertThat(result.deletedFiles()).isEqualTo(3);
    everyActiveFileExists();
  }

  @Test
  void full_anOldFileAddedAfterThePlan_beforeVacuumStart_isKept() {
    VacuumResult result =
        vacuum(VacuumMode.FULL, commitsOnQuestion(1, other(2, HandLoggedTables.add("c.parquet"))));

    assertThat(file("c.parquet")).exists();
    assertThat(result.deletedFiles()).isEqualTo(3);
    everyActiveFileExists();
  }

  @Test
  void full_anOldFileAddedAfterVacuumStart_beforeTheDeletes_isKept() {
    VacuumResult result =
        vacuum(VacuumMode.FULL, commitsOnQuestion(2, other(3, HandLoggedTables.add("c.parquet"))));

    assertThat(file("c.parquet")).exists();
    assertThat(file("a.parquet")).doesNotExist();
    assertThat(result.deletedFiles()).isEqualTo(3);
    everyActiveFileExists();
  }

  @Test
  void full_anOldDeletionVectorFileAnAddReferencesAfterVacuumStart_isKept() {
    VacuumResult result =
        vacuum(
            VacuumMode.FULL,
            commitsOnQuestion(
                2,
                other(
                    3,
                    HandLoggedTables.remove("b.parquet", System.currentTimeMillis()),
                    addWithDeletionVector("b.parquet"))));

    assertThat(file(DeletionVectorVacuumIT.DV2_FILE)).as("b.parquet's deletion vector").exists();
    assertThat(file("b.parquet")).exists();
    assertThat(result.deletedFiles()).isEqualTo(3);
    everyActiveFileExists();
  }

  @Test
  void full_anOldChangeDataFileACommitWritesAfterVacuumStart_isKept() {
    VacuumResult result =
        vacuum(
            VacuumMode.FULL,
            commitsOnQuestion(
                2,
                other(
                    3,
                    "{\"cdc\":{\"path\":\""
                        + CDC
                        + "\",\"partitionValues\":{},\"size\":8,\"dataChange\":false}}")));

    assertThat(file(CDC)).as("the change data of version 3").exists();
    assertThat(result.deletedFiles()).isEqualTo(3);
  }

  @Test
  void full_dryRun_doesNotPlanAnOldFileAddedAfterTheSnapshot() throws IOException {
    TableSnapshot snapshot = tables.loadLatest(table);
    other(2, HandLoggedTables.add("c.parquet")).commit();

    VacuumResult result =
        new VacuumExecutor(
                storage,
                new KernelLogReader(storage),
                new KernelRewriteCommitter(storage, Clock.systemUTC()),
                new VacuumPlanner(Clock.systemUTC()))
            .vacuum(snapshot, VacuumMode.FULL, 168, true);

    assertThat(result.plan().candidates())
        .extracting(c -> c.path().substring(table.uri().length() + 1))
        .containsExactlyInAnyOrder("a.parquet", DeletionVectorVacuumIT.DV2_FILE, CDC);
    assertThat(file("c.parquet")).exists();
  }

  @Test
  void aLaterCommitThatCannotBeRead_stopsTheDeletes_beforeAnyIsDeleted() throws IOException {
    long version = tables.loadLatest(table).version();
    Path garbage = file("_delta_log/%020d.json".formatted(version + 2));

    assertThatThrownBy(
            () ->
                vacuum(
                    VacuumMode.LITE,
                    commitsOnQuestion(
                        2,
                        () ->
                            Files.writeString(
                                garbage,
                                "{\"add\":{\"path\":\"a.parquet\",\"partitionValues\":{}, tru"))))
        .isInstanceOf(CompactorException.class)
        .satisfies(
            e ->
                assertThat(((CompactorException) e).kind())
                    .isEqualTo(CompactorException.Kind.OPERATION_FAILED))
        .hasMessageContaining("reading the commits after version " + version + " of ");

    assertThat(file("a.parquet")).as("nothing deleted").exists();
    assertThat(Files.readString(garbage)).as("no VACUUM END over it").startsWith("{\"add\"");
  }
}
