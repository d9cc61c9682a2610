package company.data.compactor.delta.kernel;

import static company.data.compactor.delta.kernel.AheadTables.AHEAD;
import static company.data.compactor.delta.kernel.AheadTables.APPENDS;
import static company.data.compactor.delta.kernel.AheadTables.SCHEMA;
import static company.data.compactor.delta.kernel.AheadTables.adds;
import static company.data.compactor.delta.kernel.AheadTables.appends;
import static company.data.compactor.delta.kernel.AheadTables.commitFile;
import static company.data.compactor.delta.kernel.AheadTables.decode;
import static company.data.compactor.delta.kernel.AheadTables.limitStatsToFirstColumn;
import static company.data.compactor.delta.kernel.AheadTables.onAheadThread;
import static company.data.compactor.delta.kernel.AheadTables.parquetFiles;
import static company.data.compactor.delta.kernel.AheadTables.paths;
import static company.data.compactor.delta.kernel.AheadTables.table;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import company.data.compactor.error.CompactorException;
import company.data.compactor.model.TableLocation;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.storage.Storage;
import company.data.compactor.storage.StoredObject;
import company.data.compactor.testing.ForwardingStorage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link KernelTableWriter}'s data files written ahead, broken by a second session (helper-8) on
 * 65090a0, where each of these failed: a table deleted and created again between two appends (its
 * commits named files deleted with the old table), a write that published its file and then failed
 * (an orphan behind a success), a failing delete of the unused files (the appends after it lost), a
 * commit's message, an {@link Error} (the thread and files left), an interrupt (the appends after
 * it lost). Each behaves as the writer did before it wrote ahead.
 */
class FilesWrittenAheadFaultsIT {

  @TempDir Path dir;

  // 1. Table deleted and re-created (same schema) between two appends: the files written ahead
  //    were deleted with the old table, yet the state key matches, so commits reference them.
  @Test
  void tableDeletedAndRecreatedBetweenAppends_everyCommittedFileExists() throws Exception {
    TableLocation location = TableLocation.parse("t", dir);
    Counting counting = new Counting(new LocalStorage());
    RecreatesAfter storage = new RecreatesAfter(counting, location, 3);
    KernelTableWriter writer =
        KernelTableWriter.withDuckDbDataFiles(storage, dir.resolve("scratch"));
    writer.create(location, SCHEMA, Map.of());

    long version = writer.appendAll(location, appends());

    assertThat(storage.done).as("the table was re-created mid-way").isTrue();
    // The new table: v0 create, then the 5 remaining appends.
    assertThat(version).isEqualTo(APPENDS - 3);
    List<String> missing = new ArrayList<>();
    for (long v = 1; v <= version; v++) {
      for (JsonNode add : adds(location, v)) {
        Path file = table(location).resolve(decode(add.get("path").asText()));
        if (!Files.exists(file)) {
          missing.add("v" + v + ": " + add.get("path").asText());
        }
      }
    }
    assertThat(missing).as("committed adds whose data file does not exist").isEmpty();
  }

  // 2. A background write that publishes its file and then fails (stat), for an append that is
  //    later written one by one after a state change: appendAll succeeds, the file stays orphaned.
  @Test
  void aFailedAheadWriteThatNeverSurfaces_leavesNoOrphanFile() throws Exception {
    TableLocation location = TableLocation.parse("t", dir);
    Counting counting = new Counting(new LocalStorage());
    counting.failStatOfAheadWrite = 6; // the 6th data file written ahead (append index 5)
    ChangesTableAfter storage = new ChangesTableAfter(counting, location, 3, counting);
    KernelTableWriter writer =
        KernelTableWriter.withDuckDbDataFiles(storage, dir.resolve("scratch"));
    writer.create(location, SCHEMA, Map.of());

    // The failed write was for an append written again after the other writer's change.
    long version = writer.appendAll(location, appends());

    assertThat(storage.changed).isTrue();
    assertThat(version).isEqualTo(APPENDS + 1);
    List<JsonNode> adds = new ArrayList<>();
    for (long v = 1; v <= version; v++) {
      adds.addAll(adds(location, v));
    }
    assertThat(parquetFiles(location))
        .as("every data file in the table is one the log adds")
        .isEqualTo(paths(adds));
  }

  // 3. A failing deleteAll while stopping after a state change: the parent never deleted anything
  //    and committed all appends; here appendAll fails half-way.
  @Test
  void deleteAllFaultAfterStateChange_appendAllStillCommitsEveryAppend() throws Exception {
    TableLocation location = TableLocation.parse("t", dir);
    Counting counting = new Counting(new LocalStorage());
    counting.failDeleteAll = true;
    ChangesTableAfter storage = new ChangesTableAfter(counting, location, 3, counting);
    KernelTableWriter writer =
        KernelTableWriter.withDuckDbDataFiles(storage, dir.resolve("scratch"));
    writer.create(location, SCHEMA, Map.of());

    long version = writer.appendAll(location, appends());

    assertThat(version).isEqualTo(APPENDS + 1);
  }

  // 4. The error a caller saw for a failing commit: the parent said "appending 2 rows to t".
  @Test
  void failingCommit_errorMessageAsBefore() throws Exception {
    TableLocation location = TableLocation.parse("t", dir);
    Storage storage =
        new ForwardingStorage(new LocalStorage()) {
          @Override
          public boolean putIfAbsent(String path, byte[] content) throws IOException {
            if (path.endsWith(commitFile(3))) {
              throw new IOException("injected");
            }
            return super.putIfAbsent(path, content);
          }
        };
    KernelTableWriter writer =
        KernelTableWriter.withDuckDbDataFiles(storage, dir.resolve("scratch"));
    writer.create(location, SCHEMA, Map.of());

    assertThatThrownBy(() -> writer.appendAll(location, appends()))
        .isInstanceOf(CompactorException.class)
        .hasMessageStartingWith("Failed while appending 2 rows to " + location);
  }

  // 5. An Error (not an Exception) out of a commit: the ahead thread must be stopped and the files
  //    of appends never committed deleted.
  @Test
  void anErrorOutOfACommit_stopsTheThreadAndLeavesOnlyTheFailedCommitsFile() throws Exception {
    TableLocation location = TableLocation.parse("t", dir);
    Counting counting = new Counting(new LocalStorage());
    Storage storage =
        new ForwardingStorage(counting) {
          @Override
          public boolean putIfAbsent(String path, byte[] content) throws IOException {
            if (path.endsWith(commitFile(3))) {
              counting.awaitAheadWrites(APPENDS);
              throw new AssertionError("injected error");
            }
            return super.putIfAbsent(path, content);
          }
        };
    KernelTableWriter writer =
        KernelTableWriter.withDuckDbDataFiles(storage, dir.resolve("scratch"));
    writer.create(location, SCHEMA, Map.of());

    assertThatThrownBy(() -> writer.appendAll(location, appends()))
        .isInstanceOf(AssertionError.class);

    Thread.sleep(200);
    assertThat(
            Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals(AHEAD) && t.isAlive())
                .toList())
        .as("threads left writing ahead")
        .isEmpty();
    List<JsonNode> adds = new ArrayList<>();
    for (long v = 1; v <= 2; v++) {
      adds.addAll(adds(location, v));
    }
    assertThat(parquetFiles(location))
        .as("the two committed files and the failed commit's own file")
        .hasSize(3);
  }

  // An Error out of a write ahead reaches the caller as it is, as out of a write on its thread.
  @Test
  void anErrorOutOfAWriteAhead_reachesTheCallerUnchanged() throws Exception {
    TableLocation location = TableLocation.parse("t", dir);
    Storage storage =
        new ForwardingStorage(new LocalStorage()) {
          @Override
          public void publishFile(Path local, String path) throws IOException {
            if (onAheadThread()) {
              throw new AssertionError("injected error in a write ahead");
            }
            super.publishFile(local, path);
          }
        };
    KernelTableWriter writer =
        KernelTableWriter.withDuckDbDataFiles(storage, dir.resolve("scratch"));
    writer.create(location, SCHEMA, Map.of());

    assertThatThrownBy(() -> writer.appendAll(location, appends()))
        .isExactlyInstanceOf(AssertionError.class)
        .hasMessage("injected error in a write ahead");
  }

  // 6. The caller's thread has its interrupt flag set mid-way (the parent ignored it on local
  //    storage and committed every append).
  @Test
  void interruptFlagSetMidWay_behavesAsParent() throws Exception {
    TableLocation location = TableLocation.parse("t", dir);
    Counting counting = new Counting(new LocalStorage());
    counting.slowAheadMillis = 150;
    Storage storage =
        new ForwardingStorage(counting) {
          @Override
          public boolean putIfAbsent(String path, byte[] content) throws IOException {
            boolean stored = super.putIfAbsent(path, content);
            if (path.endsWith(commitFile(2))) {
              Thread.currentThread().interrupt();
            }
            return stored;
          }
        };
    KernelTableWriter writer =
        KernelTableWriter.withDuckDbDataFiles(storage, dir.resolve("scratch"));
    writer.create(location, SCHEMA, Map.of());
    try {
      long version = writer.appendAll(location, appends());
      assertThat(version).isEqualTo(APPENDS);
    } finally {
      Thread.interrupted();
    }
  }

  /** Counts data files published on the ahead thread; can slow them or fail their stat. */
  static final class Counting extends ForwardingStorage {
    final AtomicInteger aheadWrites = new AtomicInteger();
    final AtomicInteger aheadStats = new AtomicInteger();
    volatile int failStatOfAheadWrite = -1;
    volatile boolean failDeleteAll;
    volatile long slowAheadMillis;

    Counting(Storage delegate) {
      super(delegate);
    }

    @Override
    public void publishFile(Path local, String path) throws IOException {
      if (onAheadThread() && slowAheadMillis > 0) {
        try {
          Thread.sleep(slowAheadMillis);
        } catch (InterruptedException e) {
          throw new IOException(e);
        }
      }
      super.publishFile(local, path);
    }

    @Override
    public StoredObject stat(String path) throws IOException {
      if (!path.endsWith(".parquet")) {
        return super.stat(path);
      }
      // The n-th stat of a data file, on whichever thread, fails (after its file was published).
      int n = aheadStats.incrementAndGet();
      try {
        if (n == failStatOfAheadWrite) {
          throw new IOException("injected: stat of data file #" + n);
        }
        return super.stat(path);
      } finally {
        if (onAheadThread()) {
          synchronized (this) {
            aheadWrites.incrementAndGet();
            notifyAll();
          }
        }
      }
    }

    @Override
    public int deleteAll(Collection<String> paths) throws IOException {
      if (failDeleteAll) {
        throw new IOException("injected: deleteAll");
      }
      return super.deleteAll(paths);
    }

    /** Waits (up to 30 s) until {@code n} data files have been written ahead. */
    synchronized void awaitAheadWrites(int n) {
      long until = System.currentTimeMillis() + 30_000;
      while (aheadWrites.get() < n
          && System.currentTimeMillis() < until
          && Thread.getAllStackTraces().keySet().stream()
              .anyMatch(t -> t.getName().equals(AHEAD) && t.isAlive())) {
        try {
          wait(100);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  /**
   * After our commit of {@code version} (and once every file has been written ahead), deletes the
   * whole table and creates it again with the same schema.
   */
  private static final class RecreatesAfter extends ForwardingStorage {
    private final Counting counting;
    private final TableLocation location;
    private final String trigger;
    volatile boolean done;

    RecreatesAfter(Counting delegate, TableLocation location, long version) {
      super(delegate);
      this.counting = delegate;
      this.location = location;
      this.trigger = commitFile(version);
    }

    private volatile boolean armed;

    @Override
    public boolean putIfAbsent(String path, byte[] content) throws IOException {
      boolean stored = super.putIfAbsent(path, content);
      if (stored && path.endsWith(trigger)) {
        armed = true;
      }
      return stored;
    }

    /** The next listing after our commit (the next append's look at the log) finds a new table. */
    @Override
    public List<StoredObject> listFrom(String path) throws IOException {
      if (armed && !done) {
        done = true;
        counting.awaitAheadWrites(APPENDS);
        try (Stream<Path> walk = Files.walk(table(location))) {
          for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
            Files.delete(p);
          }
        }
        new KernelTableWriter(new LocalStorage()).create(location, SCHEMA, Map.of());
      }
      return super.listFrom(path);
    }
  }

  /** After our commit of {@code version}, another writer sets delta.dataSkippingNumIndexedCols. */
  private static final class ChangesTableAfter extends ForwardingStorage {
    private final Storage delegate;
    private final Counting counting;
    private final TableLocation location;
    private final String trigger;
    volatile boolean changed;

    ChangesTableAfter(Storage delegate, TableLocation location, long version, Counting counting) {
      super(delegate);
      this.delegate = delegate;
      this.counting = counting;
      this.location = location;
      this.trigger = commitFile(version);
    }

    @Override
    public boolean putIfAbsent(String path, byte[] content) throws IOException {
      boolean stored = super.putIfAbsent(path, content);
      if (stored && path.endsWith(trigger) && !changed) {
        changed = true;
        counting.awaitAheadWrites(APPENDS);
        limitStatsToFirstColumn(location, new LocalStorage());
      }
      return stored;
    }
  }
}
