package company.data.compactor.vacuum;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import company.data.compactor.delta.kernel.KernelDeltaTables;
import company.data.compactor.delta.kernel.KernelLogReader;
import company.data.compactor.delta.kernel.KernelRewriteCommitter;
import company.data.compactor.error.CompactorException;
import company.data.compactor.lease.LeaseGuard;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.storage.Storage;
import company.data.compactor.storage.StoredObject;
import company.data.compactor.testing.ForwardingStorage;
import company.data.compactor.testing.HandLoggedTables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
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
    handLoggedTableAt("t");
  }

  private void handLoggedTableAt(String dir) throws IOException {
    Files.createDirectories(work.resolve(dir));
    table = TableLocation.parse(dir, work);
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
    return vacuum(storage, snapshot, mode, guard);
  }

  private static VacuumResult vacuum(
      Storage storage, TableSnapshot snapshot, VacuumMode mode, LeaseGuard guard) {
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
    return addWithDeletionVector(path, "u", DeletionVectorVacuumIT.DV2_Z85);
  }

  private static String addWithDeletionVector(String path, String type, String pathOrInline) {
    return "{\"add\":{\"path\":\""
        + path
        + "\",\"partitionValues\":{},\"size\":8,\"modificationTime\":1,\"dataChange\":true,"
        + "\"deletionVector\":{\"storageType\":\""
        + type
        + "\",\"pathOrInlineDv\":\""
        + pathOrInline
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

  // --- a root reached through a symbolic link, files logged by its real path --------------------

  /** The table at link/t, link being a symbolic link to real; returns real/t. */
  private Path tableBehindALink() throws IOException {
    Path real = Files.createDirectories(work.resolve("real"));
    Files.createSymbolicLink(work.resolve("link"), real);
    handLoggedTableAt("link/t");
    return real.resolve("t");
  }

  @Test
  void aLaterAddLoggedByTheRootsRealPath_refusesTheDeletes_keepingTheFile() throws IOException {
    Path realRoot = tableBehindALink();

    assertThatThrownBy(
            () ->
                vacuum(
                    VacuumMode.LITE,
                    commitsOnQuestion(
                        2, other(3, HandLoggedTables.add("file:" + realRoot + "/a.parquet")))))
        .isInstanceOf(CompactorException.class)
        .satisfies(
            e ->
                assertThat(((CompactorException) e).kind())
                    .isEqualTo(CompactorException.Kind.REFUSED))
        .hasMessageContaining("(0 deleted)")
        .hasMessageContaining(
            "a commit after version 1 adds 1 file outside the table root (file:" + realRoot);

    assertThat(realRoot.resolve("a.parquet")).as("read by version 3 by its real path").exists();
  }

  @Test
  void aLaterDeletionVectorLoggedByTheRootsRealPath_refusesTheDeletes_keepingTheFile()
      throws IOException {
    Path realRoot = tableBehindALink();
    String dv = DeletionVectorVacuumIT.DV2_FILE;

    assertThatThrownBy(
            () ->
                vacuum(
                    VacuumMode.FULL,
                    commitsOnQuestion(
                        2,
                        other(
                            3,
                            HandLoggedTables.remove("b.parquet", System.currentTimeMillis()),
                            addWithDeletionVector(
                                "b.parquet", "p", "file:" + realRoot + "/" + dv)))))
        .isInstanceOf(CompactorException.class)
        .hasMessageContaining("outside the table root");

    assertThat(realRoot.resolve(dv)).exists();
    assertThat(realRoot.resolve("c.parquet")).as("no batch deleted").exists();
  }

  @Test
  void anActiveDeletionVectorLoggedByTheRootsRealPath_refusesTheTable_deletingNothing()
      throws IOException {
    Path realRoot = tableBehindALink();
    String dv = DeletionVectorVacuumIT.DV2_FILE;
    other(
            2,
            HandLoggedTables.remove("b.parquet", OLD),
            addWithDeletionVector("b.parquet", "p", "file:" + realRoot + "/" + dv))
        .commit();
    Files.setLastModifiedTime(
        table.localPath().resolve("_delta_log/%020d.json".formatted(2)), FileTime.fromMillis(OLD));

    assertThatThrownBy(() -> tables.loadLatest(table))
        .isInstanceOf(CompactorException.class)
        .satisfies(
            e ->
                assertThat(((CompactorException) e).kind())
                    .isEqualTo(CompactorException.Kind.UNSUPPORTED_TABLE))
        .hasMessageContaining(
            "file:" + realRoot + "/" + dv + " (the deletion vector of " + table.uri());

    assertThat(realRoot.resolve(dv)).exists();
  }

  @Test
  void anActiveDeletionVectorOutsideTheRoot_refusesTheTable() throws IOException {
    Path elsewhere = Files.createDirectories(work.resolve("elsewhere"));
    Files.writeString(elsewhere.resolve("dv.bin"), "bytes");
    other(
            2,
            HandLoggedTables.remove("b.parquet", OLD),
            addWithDeletionVector("b.parquet", "p", "file:" + elsewhere + "/dv.bin"))
        .commit();

    assertThatThrownBy(() -> tables.loadLatest(table))
        .isInstanceOf(CompactorException.class)
        .hasMessageContaining("file:" + elsewhere + "/dv.bin (the deletion vector of ");
  }

  @Test
  void anActiveDeletionVectorThatIsALinkToOutsideTheRoot_refusesTheTable() throws IOException {
    Path elsewhere = Files.createDirectories(work.resolve("elsewhere"));
    Files.writeString(elsewhere.resolve("dv.bin"), "bytes");
    Path dv = file(DeletionVectorVacuumIT.DV2_FILE);
    Files.delete(dv);
    Files.createSymbolicLink(dv, elsewhere.resolve("dv.bin"));
    other(2, HandLoggedTables.remove("b.parquet", OLD), addWithDeletionVector("b.parquet"))
        .commit();

    assertThatThrownBy(() -> tables.loadLatest(table))
        .isInstanceOf(CompactorException.class)
        .hasMessageContaining(
            DeletionVectorVacuumIT.DV2_FILE
                + " (the deletion vector of "
                + table.uri()
                + "/b.parquet, a symbolic link to ");
  }

  // --- a failed batch ---------------------------------------------------------------------------

  /**
   * 40,000 expired tombstones (40 batches, each delete taking 50 ms, so batches overlap). One batch
   * fails once (a 503), in its read of the log after VACUUM START or in its delete: the batches not
   * yet deleting stop, the error counts exactly the files deleted, none is deleted after it, and no
   * VACUUM END is written.
   */
  @Test
  void aBatchWhoseReadOfTheLogFails_stopsTheOthers_andNothingIsDeletedAfterTheError()
      throws Exception {
    aFailingBatch(true);
  }

  @Test
  void aBatchWhoseDeleteFails_stopsTheOthers_andNothingIsDeletedAfterTheError() throws Exception {
    aFailingBatch(false);
  }

  private void aFailingBatch(boolean inTheRead) throws Exception {
    int files = 40_000;
    List<String> adds = new ArrayList<>(List.of(HandLoggedTables.protocolAndMetadata()));
    List<String> removes = new ArrayList<>();
    for (int i = 0; i < files; i++) {
      String name = "f%05d.parquet".formatted(i);
      adds.add(HandLoggedTables.add(name));
      removes.add(HandLoggedTables.remove(name, OLD));
    }
    TableLocation many = TableLocation.parse("many", work);
    Files.createDirectories(many.localPath());
    HandLoggedTables.commit(storage, many, 0, OLD, adds.toArray(String[]::new));
    HandLoggedTables.commit(storage, many, 1, OLD, removes.toArray(String[]::new));
    for (int i = 0; i < files; i++) {
      Path f = many.localPath().resolve("f%05d.parquet".formatted(i));
      Files.writeString(f, "x");
      Files.setLastModifiedTime(f, FileTime.fromMillis(OLD));
    }
    for (int version = 0; version < 2; version++) {
      Files.setLastModifiedTime(
          many.localPath().resolve("_delta_log/%020d.json".formatted(version)),
          FileTime.fromMillis(OLD));
    }
    String afterStart = many.child("_delta_log/%020d.json".formatted(3));
    AtomicInteger reads = new AtomicInteger();
    AtomicInteger deletes = new AtomicInteger();
    AtomicInteger startedAfterTheFailure = new AtomicInteger();
    java.util.concurrent.atomic.AtomicBoolean failed =
        new java.util.concurrent.atomic.AtomicBoolean();
    Storage flaky =
        new ForwardingStorage(storage) {
          @Override
          public StoredObject stat(String path) throws IOException {
            if (inTheRead && path.equals(afterStart) && reads.incrementAndGet() == 1) {
              failed.set(true);
              throw new IOException("503 Slow Down");
            }
            return super.stat(path);
          }

          @Override
          public int deleteAll(java.util.Collection<String> paths) throws IOException {
            if (failed.get()) {
              startedAfterTheFailure.incrementAndGet();
            }
            // A DeleteObjects round trip, which an interrupt does not stop (nor does one on disk).
            long until = System.nanoTime() + 50_000_000L;
            while (System.nanoTime() < until) {
              java.util.concurrent.locks.LockSupport.parkNanos(until - System.nanoTime());
            }
            if (!inTheRead && deletes.incrementAndGet() == 5) {
              failed.set(true);
              throw new IOException("503 Slow Down");
            }
            return super.deleteAll(paths);
          }
        };
    TableSnapshot snapshot = new KernelDeltaTables(flaky).loadLatest(many);

    Throwable thrown =
        catchThrowable(() -> vacuum(flaky, snapshot, VacuumMode.LITE, LeaseGuard.UNGUARDED));
    long left = countDataFiles(many);
    Thread.sleep(500);

    assertThat(countDataFiles(many)).as("nothing deleted after the error").isEqualTo(left);
    assertThat(thrown)
        .isInstanceOf(CompactorException.class)
        .hasMessageContaining("(" + (files - left) + " deleted so far)")
        .hasMessageContaining("503 Slow Down");
    assertThat(startedAfterTheFailure.get())
        .as("batches that began deleting after the failure: only those already past their checks")
        .isLessThan(VacuumExecutor.PARALLEL_DELETES);
    assertThat(Path.of(java.net.URI.create(afterStart).getPath()))
        .as("no VACUUM END")
        .doesNotExist();
  }

  private static long countDataFiles(TableLocation location) throws IOException {
    try (Stream<Path> listed = Files.list(location.localPath())) {
      return listed.filter(f -> f.getFileName().toString().startsWith("f")).count();
    }
  }
}
