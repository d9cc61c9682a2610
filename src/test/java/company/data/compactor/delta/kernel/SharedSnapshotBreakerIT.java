package company.data.compactor.delta.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import company.data.compactor.delta.CommitOutcome;
import company.data.compactor.delta.NewDataFile;
import company.data.compactor.delta.RewriteCommit;
import company.data.compactor.demo.DemoSeeder;
import company.data.compactor.demo.DemoTable;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.RetryPolicy;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.testing.DuckDb;
import company.data.compactor.testing.ForwardingStorage;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Adversarial tests of commits from the shelved or post-commit snapshot. */
class SharedSnapshotBreakerIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> DATA_COLUMNS =
      List.of("event_id", "customer_id", "event_type", "amount");

  @TempDir Path dir;
  private final LocalStorage local = new LocalStorage();
  private final AtomicBoolean loseNextResponse = new AtomicBoolean();
  private final ForwardingStorage storage =
      new ForwardingStorage(local) {
        @Override
        public boolean putIfAbsent(String path, byte[] content) throws IOException {
          boolean put = super.putIfAbsent(path, content);
          if (put && path.contains("/_delta_log/") && loseNextResponse.getAndSet(false)) {
            throw new IOException("connection reset after the write");
          }
          return put;
        }
      };
  private final KernelSnapshotShelf shelf = new KernelSnapshotShelf();
  private final KernelDeltaTables tables = new KernelDeltaTables(storage, shelf);
  private final KernelRewriteCommitter committer =
      new KernelRewriteCommitter(storage, Clock.systemUTC(), RetryPolicy.defaults(), shelf);
  private final KernelTableWriter otherWriter = new KernelTableWriter(local);
  private TableLocation location;

  private void seedDemo() {
    location = TableLocation.parse("demo", dir);
    new DemoSeeder(local, new KernelDeltaTables(local), otherWriter).seed(location);
  }

  private void seedWith(Map<String, String> properties, int appends) {
    location = TableLocation.parse("t", dir);
    otherWriter.create(location, DemoTable.SCHEMA, properties);
    for (int i = 0; i < appends; i++) {
      otherWriter.append(location, DemoTable.partitionOf(i), DemoTable.rowsOf(i));
    }
  }

  private Path logDir() {
    return Path.of(java.net.URI.create(location.child("_delta_log")));
  }

  private Path commitFile(long version) {
    return logDir().resolve("%020d.json".formatted(version));
  }

  private List<JsonNode> lines(long version) throws IOException {
    List<JsonNode> out = new ArrayList<>();
    for (String line : Files.readAllLines(commitFile(version))) {
      if (!line.isBlank()) {
        out.add(JSON.readTree(line));
      }
    }
    return out;
  }

  private RewriteCommit marker(long readVersion, String operation) {
    return new RewriteCommit(
        location, readVersion, List.of(), List.of(), operation, Map.of(), Map.of());
  }

  /** A copy of {@code file}'s Parquet as a new file beside it, ready to add in its place. */
  private NewDataFile copyOf(DataFile file, String tag) throws IOException {
    String logPath = file.logPath().replaceFirst("[^/]*$", "copy-" + tag + ".parquet");
    String path = location.child(logPath);
    try (InputStream in = local.openFrom(file.path(), 0);
        OutputStream out = local.create(path)) {
      in.transferTo(out);
    }
    long size = local.stat(path).sizeBytes();
    return new NewDataFile(
        path,
        logPath,
        size,
        file.partition(),
        file.statsJson(),
        System.currentTimeMillis(),
        Map.of());
  }

  private RewriteCommit rewrite(long readVersion, DataFile input, NewDataFile output) {
    return new RewriteCommit(
        location, readVersion, List.of(input), List.of(output), "OPTIMIZE", Map.of(), Map.of());
  }

  /** Deletes the table and creates it again at the same place, with versions 0..3. */
  private void recreateTable() throws IOException {
    try (Stream<Path> all = Files.walk(Path.of(java.net.URI.create(location.uri())))) {
      for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
    KernelTableWriter recreator = new KernelTableWriter(local);
    recreator.create(location, DemoTable.SCHEMA, DemoTable.properties());
    for (int i = 0; i < 3; i++) {
      recreator.append(location, DemoTable.partitionOf(i), DemoTable.rowsOf(i));
    }
  }

  /**
   * Another writer appends five commits, checkpoints at {@code checkpoint} and deletes the log
   * before it, as its log cleanup would.
   */
  private void foreignAppendsCheckpointAndCleanup(long checkpoint) throws IOException {
    for (int i = 30; i < 35; i++) {
      otherWriter.append(location, DemoTable.partitionOf(i), DemoTable.rowsOf(i));
    }
    new KernelTableCheckpointer(local).checkpoint(location, checkpoint);
    deleteLogBefore(checkpoint);
  }

  private void deleteLogBefore(long version) throws IOException {
    try (Stream<Path> files = Files.list(logDir())) {
      for (Path p : files.toList()) {
        String name = p.getFileName().toString();
        if (name.matches("\\d{20}\\..*") && Long.parseLong(name.substring(0, 20)) < version) {
          Files.delete(p);
        }
      }
    }
  }

  // ---- 1. log cleanup after the read: a commit from the shelved snapshot ----

  /**
   * Another writer commits 31..35, checkpoints 35 and cleans up the log before it (commit files
   * 0..34 deleted). Our rewrite from version 30 must not land at a version below the checkpoint,
   * where no reader of the latest version sees it.
   */
  @Test
  void logCleanupAfterTheRead_ourCommitIsNotWrittenBelowTheCheckpoint() throws Exception {
    seedDemo();
    TableSnapshot read = tables.loadLatest(location);
    DataFile input = read.activeFiles().get(0);
    NewDataFile output = copyOf(input, "a");
    foreignAppendsCheckpointAndCleanup(35);

    CommitOutcome outcome;
    try {
      outcome = committer.commitRewrite(rewrite(read.version(), input, output));
    } catch (RuntimeException e) {
      outcome = null; // refused: acceptable, nothing landed
    }
    TableSnapshot after = tables.loadLatest(location);
    List<String> active = after.activeFiles().stream().map(DataFile::logPath).toList();
    if (outcome instanceof CommitOutcome.Committed c) {
      assertThat(c.version())
          .as("a commit reported landed is above the checkpoint")
          .isGreaterThan(35);
      assertThat(active).as("a committed rewrite is visible").contains(output.logPath());
      assertThat(active).doesNotContain(input.logPath());
    } else {
      assertThat(Files.exists(commitFile(31)))
          .as("nothing of ours written at a deleted version")
          .isFalse();
    }
    assertThat(after.activeFiles()).hasSize(35);
  }

  /** The same cleanup between VACUUM START and VACUUM END (END from the post-commit snapshot). */
  @Test
  void logCleanupBetweenVacuumStartAndEnd_endIsNotWrittenBelowTheCheckpoint() throws Exception {
    seedDemo();
    TableSnapshot read = tables.loadLatest(location);
    CommitOutcome start = committer.commitRewrite(marker(read.version(), "VACUUM START"));
    assertThat(start).isEqualTo(new CommitOutcome.Committed(31, List.of()));
    foreignAppendsCheckpointAndCleanup(36);

    CommitOutcome end;
    try {
      end = committer.commitRewrite(marker(31, "VACUUM END"));
    } catch (RuntimeException e) {
      end = null;
    }
    if (end instanceof CommitOutcome.Committed c) {
      assertThat(c.version()).as("VACUUM END above the checkpoint at 36").isGreaterThan(36);
    } else {
      assertThat(Files.exists(commitFile(32))).isFalse();
    }
  }

  /**
   * Control, as before the change: a committer that loads version 30 itself finds it gone (the log
   * before the checkpoint at 35 deleted) and refuses, writing nothing.
   */
  @Test
  void control_logCleanupAfterTheRead_aCommitterLoadingItsOwnSnapshotRefuses() throws Exception {
    seedDemo();
    TableSnapshot read = tables.loadLatest(location);
    DataFile input = read.activeFiles().get(0);
    NewDataFile output = copyOf(input, "a");
    foreignAppendsCheckpointAndCleanup(35);

    KernelRewriteCommitter unshared = new KernelRewriteCommitter(storage, Clock.systemUTC());
    RuntimeException refused = null;
    try {
      unshared.commitRewrite(rewrite(read.version(), input, output));
    } catch (RuntimeException e) {
      refused = e;
    }
    assertThat(refused).as("loading version 30 fails").isNotNull();
    assertThat(Files.exists(commitFile(31))).isFalse();
  }

  /**
   * What the shared snapshot's commit leaves: Committed(31) is reported, 31.json holds our remove
   * and add, and the latest table (checkpoint 35 + later commits) shows neither.
   */
  /** Control: VACUUM END from a committer that loads version 31 itself refuses. */
  @Test
  void control_logCleanupBetweenVacuumStartAndEnd_anUnsharedEndRefuses() throws Exception {
    seedDemo();
    tables.loadLatest(location);
    assertThat(committer.commitRewrite(marker(30, "VACUUM START")))
        .isEqualTo(new CommitOutcome.Committed(31, List.of()));
    foreignAppendsCheckpointAndCleanup(36);
    RuntimeException refused = null;
    try {
      new KernelRewriteCommitter(storage, Clock.systemUTC())
          .commitRewrite(marker(31, "VACUUM END"));
    } catch (RuntimeException e) {
      refused = e;
    }
    assertThat(refused).isNotNull();
    assertThat(Files.exists(commitFile(32))).isFalse();
  }

  // ---- 2. in-commit timestamps from the post-commit snapshot ----

  @Test
  void inCommitTimestamps_stayIncreasing_acrossTheSharedAndPostCommitSnapshots() throws Exception {
    seedWith(Map.of("delta.enableInCommitTimestamps", "true"), 3);
    long future = System.currentTimeMillis() + 86_400_000L;
    // Another writer whose clock is a day ahead commits version 4.
    Files.writeString(
        commitFile(4),
        "{\"commitInfo\":{\"inCommitTimestamp\":"
            + future
            + ",\"timestamp\":"
            + future
            + ",\"operation\":\"WRITE\"}}\n");
    TableSnapshot read = tables.loadLatest(location);
    assertThat(read.version()).isEqualTo(4);

    CommitOutcome start = committer.commitRewrite(marker(4, "VACUUM START"));
    CommitOutcome end = committer.commitRewrite(marker(5, "VACUUM END"));

    assertThat(start).isEqualTo(new CommitOutcome.Committed(5, List.of()));
    assertThat(end).isEqualTo(new CommitOutcome.Committed(6, List.of()));
    long ict5 = lines(5).get(0).path("commitInfo").path("inCommitTimestamp").asLong();
    long ict6 = lines(6).get(0).path("commitInfo").path("inCommitTimestamp").asLong();
    assertThat(lines(5).get(0).has("commitInfo")).isTrue();
    assertThat(ict5).isEqualTo(future + 1);
    assertThat(ict6).isEqualTo(future + 2);
  }

  /** A future-clock writer commits between VACUUM START and END: END's ICT still increases. */
  @Test
  void inCommitTimestamps_aForeignCommitBetweenOurTwo_endStillIncreasing() throws Exception {
    seedWith(Map.of("delta.enableInCommitTimestamps", "true"), 3);
    long future = System.currentTimeMillis() + 86_400_000L;
    tables.loadLatest(location);
    CommitOutcome start = committer.commitRewrite(marker(3, "VACUUM START"));
    assertThat(start).isEqualTo(new CommitOutcome.Committed(4, List.of()));
    Files.writeString(
        commitFile(5),
        "{\"commitInfo\":{\"inCommitTimestamp\":"
            + future
            + ",\"timestamp\":"
            + future
            + ",\"operation\":\"WRITE\"}}\n");
    CommitOutcome end = committer.commitRewrite(marker(4, "VACUUM END"));
    assertThat(end).isEqualTo(new CommitOutcome.Committed(6, List.of()));
    long ict4 = lines(4).get(0).path("commitInfo").path("inCommitTimestamp").asLong();
    long ict6 = lines(6).get(0).path("commitInfo").path("inCommitTimestamp").asLong();
    assertThat(ict4).isLessThan(future);
    assertThat(ict6).isEqualTo(future + 1);
  }

  /** Another writer appends between our two rewrites: the second's row ids are past theirs. */
  @Test
  void rowTracking_anAppendBetweenOurTwoRewrites_secondGetsIdsPastTheAppend() throws Exception {
    seedWith(Map.of("delta.enableRowTracking", "true"), 3);
    TableSnapshot read = tables.loadLatest(location);
    DataFile a = read.activeFiles().get(0);
    DataFile b = read.activeFiles().get(1);
    assertThat(committer.commitRewrite(rewrite(3, a, copyOf(a, "a"))))
        .isEqualTo(new CommitOutcome.Committed(4, List.of()));
    otherWriter.append(location, DemoTable.partitionOf(3), DemoTable.rowsOf(3));
    assertThat(highWaterMark(5)).isEqualTo(249);
    CommitOutcome second = committer.commitRewrite(rewrite(4, b, copyOf(b, "b")));
    assertThat(second).isEqualTo(new CommitOutcome.Committed(6, List.of()));
    assertThat(addOf(6).path("baseRowId").asLong(-1)).isEqualTo(250);
    assertThat(highWaterMark(6)).isEqualTo(299);
    assertThat(addOf(6).path("defaultRowCommitVersion").asLong(-1)).isEqualTo(6);
    TableSnapshot after = tables.loadLatest(location);
    assertThat(after.activeFiles()).hasSize(4);
    assertThat(DuckDb.countAndSum(after.activeFiles(), "amount").rows()).isEqualTo(200);
  }

  // ---- 3. row tracking: a second rewrite from the post-commit snapshot ----

  @Test
  void rowTracking_secondRewriteFromThePostCommitSnapshot_getsFreshRowIds() throws Exception {
    seedWith(Map.of("delta.enableRowTracking", "true"), 3);
    TableSnapshot read = tables.loadLatest(location);
    assertThat(read.version()).isEqualTo(3);
    DataFile a = read.activeFiles().get(0);
    DataFile b = read.activeFiles().get(1);
    CommitOutcome first = committer.commitRewrite(rewrite(3, a, copyOf(a, "a")));
    CommitOutcome second = committer.commitRewrite(rewrite(4, b, copyOf(b, "b")));
    assertThat(first).isEqualTo(new CommitOutcome.Committed(4, List.of()));
    assertThat(second).isEqualTo(new CommitOutcome.Committed(5, List.of()));

    long hw4 = highWaterMark(4);
    long hw5 = highWaterMark(5);
    long base4 = addOf(4).path("baseRowId").asLong(-1);
    long base5 = addOf(5).path("baseRowId").asLong(-1);
    assertThat(hw4).as("high water mark after 4").isEqualTo(149 + 50);
    assertThat(base4).isEqualTo(150);
    assertThat(base5).as("fresh ids for the second rewrite").isEqualTo(200);
    assertThat(hw5).isEqualTo(249);
    assertThat(addOf(5).path("defaultRowCommitVersion").asLong(-1)).isEqualTo(5);
  }

  private JsonNode addOf(long version) throws IOException {
    return lines(version).stream().filter(n -> n.has("add")).findFirst().orElseThrow().get("add");
  }

  private long highWaterMark(long version) throws IOException {
    for (JsonNode n : lines(version)) {
      if (n.has("domainMetadata")
          && n.get("domainMetadata").path("domain").asText().equals("delta.rowTracking")) {
        return JSON.readTree(n.get("domainMetadata").path("configuration").asText())
            .path("rowIdHighWaterMark")
            .asLong();
      }
    }
    return -1;
  }

  // ---- 4. a lost response, then a second commit from the post-commit snapshot ----

  @Test
  void lostResponseOnStart_thenEndFromThePostCommitSnapshot() throws Exception {
    seedDemo();
    TableSnapshot read = tables.loadLatest(location);
    String before = DuckDb.checksum(read.activeFiles(), DATA_COLUMNS);
    loseNextResponse.set(true);
    CommitOutcome start = committer.commitRewrite(marker(30, "VACUUM START"));
    CommitOutcome end = committer.commitRewrite(marker(31, "VACUUM END"));

    assertThat(start).isEqualTo(new CommitOutcome.Committed(31, List.of()));
    assertThat(end).isEqualTo(new CommitOutcome.Committed(32, List.of()));
    assertThat(lines(31).get(0).path("commitInfo").path("operation").asText())
        .isEqualTo("VACUUM START");
    assertThat(lines(32).get(0).path("commitInfo").path("operation").asText())
        .isEqualTo("VACUUM END");
    assertThat(lines(31)).hasSize(1);
    assertThat(lines(32)).hasSize(1);
    assertThat(Files.exists(commitFile(33))).isFalse();
    assertThat(DuckDb.checksum(tables.loadLatest(location).activeFiles(), DATA_COLUMNS))
        .isEqualTo(before);
  }

  /** A rewrite whose response is lost, then a second rewrite from 31: both land, rows kept. */
  @Test
  void lostResponseOnARewrite_thenASecondRewriteFrom31() throws Exception {
    seedDemo();
    TableSnapshot read = tables.loadLatest(location);
    String before = DuckDb.checksum(read.activeFiles(), DATA_COLUMNS);
    DataFile a = read.activeFiles().get(0);
    DataFile b = read.activeFiles().get(1);
    loseNextResponse.set(true);
    CommitOutcome first = committer.commitRewrite(rewrite(30, a, copyOf(a, "a")));
    CommitOutcome second = committer.commitRewrite(rewrite(31, b, copyOf(b, "b")));
    assertThat(first).isEqualTo(new CommitOutcome.Committed(31, List.of()));
    assertThat(second).isEqualTo(new CommitOutcome.Committed(32, List.of()));
    TableSnapshot after = tables.loadLatest(location);
    assertThat(after.activeFiles()).hasSize(30);
    assertThat(DuckDb.checksum(after.activeFiles(), DATA_COLUMNS)).isEqualTo(before);
  }

  // ---- 5. metadata / protocol changes between our commits ----

  private void writeMetadataChange(long version, Map<String, String> configuration)
      throws IOException {
    JsonNode metadata = null;
    for (String line : Files.readAllLines(commitFile(0))) {
      JsonNode n = JSON.readTree(line);
      if (n.has("metaData")) {
        metadata = n;
      }
    }
    ObjectNode changed = metadata.deepCopy();
    ObjectNode conf = (ObjectNode) changed.get("metaData").get("configuration");
    configuration.forEach(conf::put);
    Files.writeString(
        commitFile(version),
        "{\"commitInfo\":{\"timestamp\":"
            + System.currentTimeMillis()
            + ",\"operation\":\"SET TBLPROPERTIES\"}}\n"
            + JSON.writeValueAsString(changed)
            + "\n");
  }

  @Test
  void appendOnlySetBetweenVacuumStartAndEnd_endConflicts() throws Exception {
    seedDemo();
    tables.loadLatest(location);
    CommitOutcome start = committer.commitRewrite(marker(30, "VACUUM START"));
    assertThat(start).isEqualTo(new CommitOutcome.Committed(31, List.of()));
    writeMetadataChange(32, Map.of("delta.appendOnly", "true"));

    CommitOutcome end = committer.commitRewrite(marker(31, "VACUUM END"));
    // Control: the same commit from a committer that loads the table itself.
    assertThat(end).isInstanceOf(CommitOutcome.Conflicted.class);
    assertThat(Files.exists(commitFile(33))).isFalse();
  }

  @Test
  void retentionChangeBetweenTheReadAndARewrite_conflicts_andNothingLands() throws Exception {
    seedDemo();
    TableSnapshot read = tables.loadLatest(location);
    String before = DuckDb.checksum(read.activeFiles(), DATA_COLUMNS);
    DataFile a = read.activeFiles().get(0);
    writeMetadataChange(31, Map.of("delta.deletedFileRetentionDuration", "interval 1 hours"));

    CommitOutcome ours = committer.commitRewrite(rewrite(30, a, copyOf(a, "a")));
    assertThat(ours).isInstanceOf(CommitOutcome.Conflicted.class);
    assertThat(Files.exists(commitFile(32))).isFalse();
    TableSnapshot after = tables.loadLatest(location);
    assertThat(after.version()).isEqualTo(31);
    assertThat(DuckDb.checksum(after.activeFiles(), DATA_COLUMNS)).isEqualTo(before);
  }

  @Test
  void protocolUpgradeBetweenTheReadAndARewrite_conflicts() throws Exception {
    seedDemo();
    TableSnapshot read = tables.loadLatest(location);
    DataFile a = read.activeFiles().get(0);
    Files.writeString(
        commitFile(31),
        "{\"commitInfo\":{\"timestamp\":1,\"operation\":\"UPGRADE\"}}\n"
            + "{\"protocol\":{\"minReaderVersion\":3,\"minWriterVersion\":7,"
            + "\"readerFeatures\":[\"deletionVectors\"],"
            + "\"writerFeatures\":[\"deletionVectors\",\"appendOnly\",\"invariants\"]}}\n");
    CommitOutcome ours = committer.commitRewrite(rewrite(30, a, copyOf(a, "a")));
    assertThat(ours).isInstanceOf(CommitOutcome.Conflicted.class);
    assertThat(Files.exists(commitFile(32))).isFalse();
  }

  /**
   * The table is deleted and created again (4 versions) while the run holds version 30 of the old
   * one: a commit from the shelved snapshot must not write 31 into the new table's log.
   */
  @Test
  void tableRecreatedAfterTheRead_noCommitLandsInTheNewLog() throws Exception {
    seedDemo();
    TableSnapshot read = tables.loadLatest(location);
    recreateTable();
    CommitOutcome outcome;
    try {
      outcome = committer.commitRewrite(marker(read.version(), "VACUUM START"));
    } catch (RuntimeException e) {
      outcome = null;
    }
    assertThat(Files.exists(commitFile(31)))
        .as("no commit 31 after the new table's version 3 (outcome " + outcome + ")")
        .isFalse();
  }

  /** Control: without the shelf, the commit loads version 30 of the new table and refuses. */
  @Test
  void control_tableRecreatedAfterTheRead_anUnsharedCommitterRefuses() throws Exception {
    seedDemo();
    TableSnapshot read = tables.loadLatest(location);
    recreateTable();
    RuntimeException refused = null;
    try {
      new KernelRewriteCommitter(storage, Clock.systemUTC())
          .commitRewrite(marker(read.version(), "VACUUM START"));
    } catch (RuntimeException e) {
      refused = e;
    }
    assertThat(refused).isNotNull();
    assertThat(Files.exists(commitFile(31))).isFalse();
  }

  /**
   * The reader refuses version 31 (a file logged outside the root): a commit at 31 loads its own.
   */
  @Test
  void aLoadRefusedByTheRootCheck_isNotShelved() throws Exception {
    seedDemo();
    tables.loadLatest(location);
    Files.writeString(
        commitFile(31),
        "{\"commitInfo\":{\"timestamp\":1,\"operation\":\"WRITE\"}}\n"
            + "{\"add\":{\"path\":\"../outside.parquet\",\"partitionValues\":"
            + "{\"event_date\":\"2026-10-17\"},\"size\":8,\"modificationTime\":1,"
            + "\"dataChange\":true}}\n");
    RuntimeException refused = null;
    try {
      tables.loadLatest(location);
    } catch (RuntimeException e) {
      refused = e;
    }
    assertThat(refused).isNotNull();
    assertThat(shelf.get(location.uri(), 31)).isEmpty();
    assertThat(shelf.get(location.uri(), 30)).isPresent();
    CommitOutcome at30 = committer.commitRewrite(marker(30, "VACUUM START"));
    assertThat(at30).isEqualTo(new CommitOutcome.Committed(32, List.of()));
  }

  /** Two spellings of one table: the shelf is keyed by the spelling; commits land once each. */
  @Test
  void twoSpellingsOfOneTable() throws Exception {
    seedDemo();
    TableLocation other =
        TableLocation.parse(Path.of(java.net.URI.create(location.uri())) + "/", dir);
    tables.loadLatest(other);
    CommitOutcome start = committer.commitRewrite(marker(30, "VACUUM START"));
    location = other;
    CommitOutcome end = committer.commitRewrite(marker(31, "VACUUM END"));
    assertThat(start).isEqualTo(new CommitOutcome.Committed(31, List.of()));
    assertThat(end).isEqualTo(new CommitOutcome.Committed(32, List.of()));
    assertThat(lines(32).get(0).path("commitInfo").path("operation").asText())
        .isEqualTo("VACUUM END");
    assertThat(Files.exists(commitFile(33))).isFalse();
  }

  /**
   * A rewrite lands at 31 (post-commit snapshot kept); another writer deletes input B at 32; our
   * rewrite of B from 31 must conflict, or B's deleted rows come back as B'.
   */
  @Test
  void aRemoveOfOurInputAfterOurFirstCommit_secondRewriteFromThePostCommitSnapshotConflicts()
      throws Exception {
    seedDemo();
    TableSnapshot read = tables.loadLatest(location);
    DataFile a = read.activeFiles().get(0);
    DataFile b = read.activeFiles().get(1);
    assertThat(committer.commitRewrite(rewrite(30, a, copyOf(a, "a"))))
        .isEqualTo(new CommitOutcome.Committed(31, List.of()));
    CommitOutcome theirs =
        new KernelRewriteCommitter(local, Clock.systemUTC())
            .commitRewrite(
                new RewriteCommit(
                    location, 31, List.of(b), List.of(), "DELETE", Map.of(), Map.of()));
    assertThat(theirs).isEqualTo(new CommitOutcome.Committed(32, List.of()));
    NewDataFile bPrime = copyOf(b, "b");

    CommitOutcome ours = committer.commitRewrite(rewrite(31, b, bPrime));
    assertThat(ours).isInstanceOf(CommitOutcome.Conflicted.class);
    assertThat(Files.exists(commitFile(33))).isFalse();
    TableSnapshot after = tables.loadLatest(location);
    assertThat(after.activeFiles().stream().map(DataFile::logPath))
        .doesNotContain(bPrime.logPath(), b.logPath());
    assertThat(DuckDb.countAndSum(after.activeFiles(), "amount").rows()).isEqualTo(1450);
  }

  /**
   * The read version has a checksum file; the second rewrite, from the post-commit snapshot of the
   * first, derives its checksum from that snapshot: it must match the table at 32.
   */
  @Test
  void checksumOfASecondRewriteFromThePostCommitSnapshot_matchesTheTable() throws Exception {
    seedDemo();
    io.delta.kernel.engine.Engine engine = KernelEngines.over(local);
    io.delta.kernel.TableManager.loadSnapshot(location.uri())
        .build(engine)
        .writeChecksum(engine, io.delta.kernel.Snapshot.ChecksumWriteMode.FULL);
    assertThat(Files.exists(logDir().resolve("%020d.crc".formatted(30)))).isTrue();
    TableSnapshot read = tables.loadLatest(location);
    DataFile a = read.activeFiles().get(0);
    DataFile b = read.activeFiles().get(1);
    DataFile c = read.activeFiles().get(2);
    assertThat(committer.commitRewrite(rewrite(30, a, copyOf(a, "a"))))
        .isEqualTo(new CommitOutcome.Committed(31, List.of()));
    CommitOutcome second =
        committer.commitRewrite(
            new RewriteCommit(
                location,
                31,
                List.of(b, c),
                List.of(copyOf(b, "b")),
                "OPTIMIZE",
                Map.of(),
                Map.of()));
    assertThat(second).isEqualTo(new CommitOutcome.Committed(32, List.of()));
    TableSnapshot after = new KernelDeltaTables(local).loadLatest(location);
    Path crc = logDir().resolve("%020d.crc".formatted(32));
    assertThat(Files.exists(crc)).as("32.crc written").isTrue();
    JsonNode sum = JSON.readTree(Files.readString(crc));
    assertThat(sum.path("numFiles").asLong()).isEqualTo(after.activeFiles().size());
    assertThat(sum.path("tableSizeBytes").asLong())
        .isEqualTo(after.activeFiles().stream().mapToLong(DataFile::sizeBytes).sum());
    assertThat(after.activeFiles()).hasSize(29);
  }

  // ---- 6. the commit lane: several threads from one shelved snapshot ----

  @Test
  void severalThreadsCommitFromTheShelvedSnapshot_everyRewriteLandsOnce() throws Exception {
    seedDemo();
    TableSnapshot read = tables.loadLatest(location);
    String before = DuckDb.checksum(read.activeFiles(), DATA_COLUMNS);
    List<RewriteCommit> commits = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      DataFile f = read.activeFiles().get(i);
      commits.add(rewrite(30, f, copyOf(f, "t" + i)));
    }
    ExecutorService pool = Executors.newFixedThreadPool(6);
    List<Future<CommitOutcome>> futures = new ArrayList<>();
    for (RewriteCommit c : commits) {
      futures.add(pool.submit(() -> committer.commitRewrite(c)));
    }
    // Meanwhile the reader loads the table again (replacing the shelf).
    tables.loadLatest(location);
    List<Long> versions = new ArrayList<>();
    for (Future<CommitOutcome> f : futures) {
      versions.add(((CommitOutcome.Committed) f.get()).version());
    }
    pool.shutdown();
    assertThat(versions).containsExactlyInAnyOrder(31L, 32L, 33L, 34L, 35L, 36L);
    TableSnapshot after = tables.loadLatest(location);
    assertThat(after.version()).isEqualTo(36);
    assertThat(after.activeFiles()).hasSize(30);
    assertThat(DuckDb.checksum(after.activeFiles(), DATA_COLUMNS)).isEqualTo(before);
  }

  // ---- 7. loadAt an older version while a newer one was shelved; two tables ----

  @Test
  void loadAtAnOlderVersion_thenCommitsFromBoth() throws Exception {
    seedDemo();
    TableSnapshot latest = tables.loadLatest(location);
    TableSnapshot older = tables.loadAt(location, 20);
    DataFile a = older.activeFiles().get(0);
    // A rewrite planned at 20 of a file the later appends did not touch.
    CommitOutcome first = committer.commitRewrite(rewrite(20, a, copyOf(a, "a")));
    assertThat(first).isEqualTo(new CommitOutcome.Committed(31, List.of()));
    DataFile b = latest.activeFiles().stream().filter(f -> !f.equals(a)).findFirst().orElseThrow();
    CommitOutcome second = committer.commitRewrite(rewrite(30, b, copyOf(b, "b")));
    assertThat(second).isEqualTo(new CommitOutcome.Committed(32, List.of()));
    TableSnapshot after = tables.loadLatest(location);
    assertThat(after.activeFiles()).hasSize(30);
    assertThat(DuckDb.checksum(after.activeFiles(), DATA_COLUMNS))
        .isEqualTo(DuckDb.checksum(latest.activeFiles(), DATA_COLUMNS));
  }

  @Test
  void twoTablesAtTheSameVersion_eachCommitGoesToItsOwnTable() throws Exception {
    TableLocation one = TableLocation.parse("one", dir);
    TableLocation two = TableLocation.parse("two", dir);
    new DemoSeeder(local, new KernelDeltaTables(local), otherWriter).seed(one);
    new DemoSeeder(local, new KernelDeltaTables(local), otherWriter).seed(two);
    tables.loadLatest(one);
    location = two;
    CommitOutcome onTwo = committer.commitRewrite(marker(30, "VACUUM START"));
    assertThat(onTwo).isEqualTo(new CommitOutcome.Committed(31, List.of()));
    assertThat(Files.exists(commitFile(31))).isTrue();
    location = one;
    assertThat(Files.exists(commitFile(31))).isFalse();
    CommitOutcome onOne = committer.commitRewrite(marker(30, "VACUUM START"));
    assertThat(onOne).isEqualTo(new CommitOutcome.Committed(31, List.of()));
    location = two;
    CommitOutcome endTwo = committer.commitRewrite(marker(31, "VACUUM END"));
    assertThat(endTwo).isEqualTo(new CommitOutcome.Committed(32, List.of()));
    location = one;
    assertThat(Files.exists(commitFile(32))).isFalse();
  }
}
