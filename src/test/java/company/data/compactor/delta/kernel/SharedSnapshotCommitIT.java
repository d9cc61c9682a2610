package company.data.compactor.delta.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.delta.CommitOutcome;
import company.data.compactor.delta.RewriteCommit;
import company.data.compactor.demo.DemoSeeder;
import company.data.compactor.demo.DemoTable;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.RetryPolicy;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.storage.StoredObject;
import company.data.compactor.testing.DuckDb;
import company.data.compactor.testing.ForwardingStorage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A commit starts from the snapshot the run's reader built at its read version, and the next commit
 * from kernel's post-commit snapshot of ours, instead of loading the table again; another writer's
 * commit in between is still seen and judged as it is without the shared snapshot.
 */
class SharedSnapshotCommitIT {

  private static final List<String> DATA_COLUMNS =
      List.of("event_id", "customer_id", "event_type", "amount");

  @TempDir Path dir;
  private final AtomicInteger logListings = new AtomicInteger();
  private final LocalStorage local = new LocalStorage();
  private final ForwardingStorage storage =
      new ForwardingStorage(local) {
        @Override
        public List<StoredObject> listFrom(String path) throws IOException {
          if (path.contains("/_delta_log/")) {
            logListings.incrementAndGet();
          }
          return super.listFrom(path);
        }
      };
  private final KernelSnapshotShelf shelf = new KernelSnapshotShelf();
  private final KernelDeltaTables tables = new KernelDeltaTables(storage, shelf);
  private final KernelRewriteCommitter committer =
      new KernelRewriteCommitter(storage, Clock.systemUTC(), RetryPolicy.defaults(), shelf);
  private final KernelTableWriter otherWriter = new KernelTableWriter(local);
  private TableLocation location;

  @BeforeEach
  void seed() {
    location = TableLocation.parse("demo", dir);
    new DemoSeeder(local, new KernelDeltaTables(local), otherWriter).seed(location);
  }

  private RewriteCommit marker(long readVersion, String operation) {
    return new RewriteCommit(
        location, readVersion, List.of(), List.of(), operation, Map.of(), Map.of());
  }

  private String commitFile(long version) throws IOException {
    return Files.readString(dir.resolve("demo/_delta_log/%020d.json".formatted(version)));
  }

  @Test
  void commitsFromTheVersionJustRead_andFromOurLastCommit_doNotListTheLogAgain() throws Exception {
    TableSnapshot read = tables.loadLatest(location);
    logListings.set(0);

    CommitOutcome start = committer.commitRewrite(marker(read.version(), "VACUUM START"));
    CommitOutcome end =
        committer.commitRewrite(marker(((CommitOutcome.Committed) start).version(), "VACUUM END"));

    assertThat(start).isEqualTo(new CommitOutcome.Committed(31, List.of()));
    assertThat(end).isEqualTo(new CommitOutcome.Committed(32, List.of()));
    assertThat(logListings.get())
        .as("neither commit loaded the table: the reader's snapshot, then the post-commit one")
        .isZero();
    assertThat(commitFile(31)).contains("\"operation\":\"VACUUM START\"");
    assertThat(commitFile(32)).contains("\"operation\":\"VACUUM END\"");
    assertThat(tables.loadLatest(location).activeFiles())
        .containsExactlyInAnyOrderElementsOf(read.activeFiles());
  }

  /** Read at a checkpoint's version, the snapshot is checked by that checkpoint and reused. */
  @Test
  void aSnapshotReadAtACheckpointsVersion_isReusedToo() throws Exception {
    new KernelTableCheckpointer(local).checkpoint(location, 30);
    TableSnapshot read = tables.loadLatest(location);
    logListings.set(0);

    CommitOutcome start = committer.commitRewrite(marker(read.version(), "VACUUM START"));

    assertThat(start).isEqualTo(new CommitOutcome.Committed(31, List.of()));
    assertThat(logListings.get()).isZero();
  }

  /**
   * The log cleaned up by another writer after a newer checkpoint: the kept snapshot no longer
   * leads anywhere, so the commit loads its read version again, which fails, and nothing lands
   * below the checkpoint (SharedSnapshotBreakerIT has the other cases).
   */
  @Test
  void aReadVersionCleanedOutOfTheLog_isNotCommittedFrom() throws Exception {
    TableSnapshot read = tables.loadLatest(location);
    otherWriter.append(location, DemoTable.partitionOf(0), DemoTable.rowsOf(30));
    new KernelTableCheckpointer(local).checkpoint(location, 31);
    for (long v = 0; v <= 30; v++) {
      Files.delete(dir.resolve("demo/_delta_log/%020d.json".formatted(v)));
    }

    Throwable refused =
        org.assertj.core.api.Assertions.catchThrowable(
            () -> committer.commitRewrite(marker(read.version(), "VACUUM START")));

    assertThat(refused).isNotNull();
    assertThat(dir.resolve("demo/_delta_log/%020d.json".formatted(31))).exists();
    assertThat(tables.loadLatest(location).version()).isEqualTo(31);
    assertThat(Files.readString(dir.resolve("demo/_delta_log/%020d.json".formatted(31))))
        .doesNotContain("VACUUM START");
  }

  @Test
  void aCommitFromAnotherVersionThanTheOneRead_loadsItsOwn() {
    TableSnapshot read = tables.loadLatest(location);
    logListings.set(0);

    CommitOutcome outcome = committer.commitRewrite(marker(read.version() - 1, "VACUUM START"));

    assertThat(outcome).isEqualTo(new CommitOutcome.Committed(31, List.of()));
    assertThat(logListings.get()).as("version 29 was loaded for it").isPositive();
  }

  /** Another writer appends between the read and the rewrite's commit: both survive. */
  @Test
  void anAppendBetweenTheReadAndTheCommit_isSteppedOver_andEveryRowKept() throws Exception {
    TableSnapshot read = tables.loadLatest(location);
    List<DataFile> inputs =
        read.activeFiles().stream()
            .filter(f -> f.partition().equals(DemoTable.partitionOf(0)))
            .limit(2)
            .toList();
    otherWriter.append(location, DemoTable.partitionOf(0), DemoTable.rowsOf(30));

    CommitOutcome outcome =
        committer.commitRewrite(
            new RewriteCommit(
                location, read.version(), inputs, List.of(), "DELETE", Map.of(), Map.of()));
    TableSnapshot after = tables.loadLatest(location);

    assertThat(outcome).isInstanceOf(CommitOutcome.Committed.class);
    assertThat(((CommitOutcome.Committed) outcome).version()).isEqualTo(32);
    assertThat(after.activeFiles()).hasSize(30 - 2 + 1);
    assertThat(DuckDb.countAndSum(after.activeFiles(), "amount").rows()).isEqualTo(1500 - 100 + 50);
  }

  /** Another writer removes one of our inputs between the read and the commit: ours is refused. */
  @Test
  void aRemoveOfOurInputBetweenTheReadAndTheCommit_conflicts_andNothingOfOursLands()
      throws Exception {
    TableSnapshot read = tables.loadLatest(location);
    DataFile victim = read.activeFiles().get(0);
    CommitOutcome theirs =
        new KernelRewriteCommitter(local, Clock.systemUTC())
            .commitRewrite(
                new RewriteCommit(
                    location,
                    read.version(),
                    List.of(victim),
                    List.of(),
                    "DELETE",
                    Map.of(),
                    Map.of()));
    assertThat(theirs).isEqualTo(new CommitOutcome.Committed(31, List.of()));
    String expected =
        DuckDb.checksum(
            read.activeFiles().stream().filter(f -> !f.equals(victim)).toList(), DATA_COLUMNS);

    CommitOutcome ours =
        committer.commitRewrite(
            new RewriteCommit(
                location,
                read.version(),
                List.of(victim, read.activeFiles().get(1)),
                List.of(),
                "OPTIMIZE",
                Map.of(),
                Map.of()));
    TableSnapshot after = tables.loadLatest(location);

    assertThat(ours).isInstanceOf(CommitOutcome.Conflicted.class);
    assertThat(after.version()).isEqualTo(31);
    assertThat(DuckDb.checksum(after.activeFiles(), DATA_COLUMNS))
        .isEqualTo(expected)
        .startsWith("1450:");
  }

  /**
   * Another writer commits between our two commits: the second, from the post-commit snapshot of
   * the first, lands after it, and the other writer's rows stay.
   */
  @Test
  void aCommitBetweenOurTwo_isSteppedOverByTheSecond() throws Exception {
    TableSnapshot read = tables.loadLatest(location);
    CommitOutcome start = committer.commitRewrite(marker(read.version(), "VACUUM START"));
    otherWriter.append(location, DemoTable.partitionOf(1), DemoTable.rowsOf(31));

    CommitOutcome end = committer.commitRewrite(marker(31, "VACUUM END"));
    TableSnapshot after = tables.loadLatest(location);

    assertThat(start).isEqualTo(new CommitOutcome.Committed(31, List.of()));
    assertThat(end).isEqualTo(new CommitOutcome.Committed(33, List.of()));
    assertThat(commitFile(33)).contains("\"operation\":\"VACUUM END\"");
    assertThat(after.activeFiles()).hasSize(31);
    assertThat(DuckDb.countAndSum(after.activeFiles(), "amount").rows()).isEqualTo(1550);
  }
}
