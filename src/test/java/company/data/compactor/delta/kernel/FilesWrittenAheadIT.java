package company.data.compactor.delta.kernel;

import static company.data.compactor.delta.kernel.AheadTables.APPENDS;
import static company.data.compactor.delta.kernel.AheadTables.SCHEMA;
import static company.data.compactor.delta.kernel.AheadTables.adds;
import static company.data.compactor.delta.kernel.AheadTables.appends;
import static company.data.compactor.delta.kernel.AheadTables.commitFile;
import static company.data.compactor.delta.kernel.AheadTables.limitStatsToFirstColumn;
import static company.data.compactor.delta.kernel.AheadTables.logFile;
import static company.data.compactor.delta.kernel.AheadTables.parquetFiles;
import static company.data.compactor.delta.kernel.AheadTables.paths;
import static company.data.compactor.delta.kernel.AheadTables.stats;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import company.data.compactor.error.CompactorException;
import company.data.compactor.model.TableLocation;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.storage.Storage;
import company.data.compactor.testing.ForwardingStorage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link KernelTableWriter#appendAll} with DuckDB writing the data files ahead of the commits, on a
 * thread of its own, for the first transaction's state: another writer changing the table between
 * two appends, and a commit that fails, must neither commit a file written for a state that is gone
 * nor leave files behind, and must never delete the file of a commit that may have landed.
 */
class FilesWrittenAheadIT {

  @TempDir Path dir;

  @Test
  void anotherWriterChangesTheTableBetweenAppends_laterFilesAreWrittenForItsNewState_noneLeft()
      throws Exception {
    TableLocation location = TableLocation.parse("t", dir);
    // After our commit 3, another writer limits stats to the first column (commit 4). Writes ahead
    // are slow, so some are still to come when the writer goes on one by one.
    ChangesTheTableAfter storage = new ChangesTheTableAfter(new LocalStorage(), location, 3);
    CountsPublished published = new CountsPublished(storage, 40);
    KernelTableWriter writer =
        KernelTableWriter.withDuckDbDataFiles(published, dir.resolve("scratch"));
    writer.create(location, SCHEMA, Map.of());

    long version = writer.appendAll(location, appends());

    assertThat(storage.changed).as("the other writer committed").isTrue();
    assertThat(version).isEqualTo(APPENDS + 1);
    List<JsonNode> adds = new ArrayList<>();
    for (long v = 1; v <= version; v++) {
      List<JsonNode> commitAdds = adds(location, v);
      if (v == 4) {
        assertThat(commitAdds).as("the other writer's commit adds nothing").isEmpty();
        continue;
      }
      assertThat(commitAdds).as("commit %d", v).hasSize(1);
      JsonNode stats = stats(commitAdds.get(0));
      assertThat(stats.get("numRecords").asLong()).isEqualTo(2);
      Set<String> columns = new TreeSet<>();
      stats.get("nullCount").fieldNames().forEachRemaining(columns::add);
      assertThat(columns)
          .as("stats columns of commit %d", v)
          .isEqualTo(v < 4 ? Set.of("a", "b") : Set.of("a"));
      adds.add(commitAdds.get(0));
    }
    assertThat(adds).hasSize(APPENDS);
    assertThat(parquetFiles(location))
        .as("every data file in the table is one the log adds")
        .isEqualTo(paths(adds));
    assertThat(dir.resolve("scratch")).isEmptyDirectory();
    List<String> threads = published.threads();
    int firstOwn = threads.indexOf("own");
    assertThat(firstOwn).as("files written one by one after the change").isPositive();
    assertThat(threads.subList(firstOwn, threads.size()))
        .as("DuckDB in one thread's hands at a time: nothing written ahead once it goes one by one")
        .containsOnly("own");
  }

  @Test
  void appendsOnAQuietTable_useEveryFileWrittenAhead_andLeaveNoThreadBehind() throws Exception {
    TableLocation location = TableLocation.parse("t", dir);
    CountsPublished storage = new CountsPublished(new LocalStorage(), 0);
    KernelTableWriter writer =
        KernelTableWriter.withDuckDbDataFiles(storage, dir.resolve("scratch"));
    writer.create(location, SCHEMA, Map.of());

    assertThat(writer.appendAll(location, appends())).isEqualTo(APPENDS);
    assertThat(writer.appendAll(location, appends())).isEqualTo(2 * APPENDS);

    assertThat(storage.onThreadAhead.get())
        .as("files written by the thread ahead")
        .isEqualTo(2 * APPENDS);
    assertThat(storage.published.get()).as("files written in all").isEqualTo(2 * APPENDS);
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().equals("data-files-ahead")) {
        t.join(5_000);
        assertThat(t.isAlive()).as("a thread writing ahead, after appendAll returned").isFalse();
      }
    }
  }

  @Test
  void aCommitThatFails_keepsItsOwnFile_andDeletesTheFilesOfAppendsNeverCommitted()
      throws Exception {
    TableLocation location = TableLocation.parse("t", dir);
    FailsCommit storage = new FailsCommit(new LocalStorage(), "%020d.json".formatted(3));
    KernelTableWriter writer =
        KernelTableWriter.withDuckDbDataFiles(storage, dir.resolve("scratch"));
    writer.create(location, SCHEMA, Map.of());

    assertThatThrownBy(() -> writer.appendAll(location, appends()))
        .isInstanceOf(CompactorException.class)
        .hasMessageContaining(location.toString());

    List<JsonNode> adds = new ArrayList<>();
    for (long v = 1; v <= 2; v++) {
      adds.addAll(adds(location, v));
    }
    assertThat(Files.exists(logFile(location, 3))).isFalse();
    Set<String> left = parquetFiles(location);
    assertThat(left)
        .as("the two committed files, and the one of the failed commit (it may have landed)")
        .hasSize(3)
        .containsAll(paths(adds));
    assertThat(dir.resolve("scratch")).isEmptyDirectory();
  }

  /** After the commit of {@code version}, another writer sets delta.dataSkippingNumIndexedCols. */
  private static final class ChangesTheTableAfter extends ForwardingStorage {
    private final Storage delegate;
    private final TableLocation location;
    private final String trigger;
    volatile boolean changed;

    ChangesTheTableAfter(Storage delegate, TableLocation location, long version) {
      super(delegate);
      this.delegate = delegate;
      this.location = location;
      this.trigger = commitFile(version);
    }

    @Override
    public boolean putIfAbsent(String path, byte[] content) throws IOException {
      boolean stored = super.putIfAbsent(path, content);
      if (stored && path.endsWith(trigger) && !changed) {
        changed = true;
        limitStatsToFirstColumn(location, delegate);
      }
      return stored;
    }
  }

  /**
   * Counts the data files published, and those published by the thread writing ahead, which it
   * slows by {@code aheadMillis} each; keeps whose thread published each, in order.
   */
  private static final class CountsPublished extends ForwardingStorage {
    final AtomicInteger published = new AtomicInteger();
    final AtomicInteger onThreadAhead = new AtomicInteger();
    private final long aheadMillis;
    private final List<String> threads = new ArrayList<>();

    CountsPublished(Storage delegate, long aheadMillis) {
      super(delegate);
      this.aheadMillis = aheadMillis;
    }

    @Override
    public void publishFile(Path local, String path) throws IOException {
      boolean ahead = Thread.currentThread().getName().equals("data-files-ahead");
      if (ahead && aheadMillis > 0) {
        try {
          Thread.sleep(aheadMillis);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      super.publishFile(local, path);
      published.incrementAndGet();
      if (ahead) {
        onThreadAhead.incrementAndGet();
      }
      synchronized (threads) {
        threads.add(ahead ? "ahead" : "own");
      }
    }

    List<String> threads() {
      synchronized (threads) {
        return List.copyOf(threads);
      }
    }
  }

  /** Storage whose write of one commit file fails before anything is stored. */
  private static final class FailsCommit extends ForwardingStorage {
    private final String commit;

    FailsCommit(Storage delegate, String commit) {
      super(delegate);
      this.commit = commit;
    }

    @Override
    public boolean putIfAbsent(String path, byte[] content) throws IOException {
      if (path.endsWith("/_delta_log/" + commit)) {
        throw new IOException("injected: the commit file could not be written");
      }
      return super.putIfAbsent(path, content);
    }
  }
}
