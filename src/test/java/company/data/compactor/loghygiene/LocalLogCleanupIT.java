package company.data.compactor.loghygiene;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.delta.CheckpointOutcome;
import company.data.compactor.delta.kernel.KernelDeltaTables;
import company.data.compactor.delta.kernel.KernelTableCheckpointer;
import company.data.compactor.delta.kernel.KernelTableWriter;
import company.data.compactor.demo.DemoSeeder;
import company.data.compactor.model.TableLocation;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.storage.Storage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link LogCleanupContract} on local disk, plus what only local disk can show. */
class LocalLogCleanupIT extends LogCleanupContract {

  @TempDir Path dir;
  private final LocalStorage storage = new LocalStorage();
  private int tables;

  @Override
  Storage storage() {
    return storage;
  }

  @Override
  TableLocation newTable() {
    return TableLocation.parse("t" + tables++, dir);
  }

  @Test
  void writingACheckpoint_deletesNoLogFile_evenWhenTheyAreLongExpired() throws Exception {
    TableLocation table = newTable();
    new DemoSeeder(storage, new KernelDeltaTables(storage), new KernelTableWriter(storage))
        .seed(table);
    // An older checkpoint, written by kernel as any writer would.
    io.delta.kernel.engine.Engine hadoop =
        io.delta.kernel.defaults.engine.DefaultEngine.create(
            new org.apache.hadoop.conf.Configuration());
    io.delta.kernel.Table.forPath(hadoop, table.uri()).checkpoint(hadoop, 20);
    Path log = Path.of(java.net.URI.create(table.child("_delta_log")));
    FileTime old = FileTime.from(Instant.now().minus(Duration.ofDays(90)));
    List<Path> before;
    try (Stream<Path> files = Files.list(log)) {
      before = files.sorted().toList();
    }
    for (Path file : before) {
      Files.setLastModifiedTime(file, old);
    }

    CheckpointOutcome outcome = new KernelTableCheckpointer(storage).checkpoint(table, 30);

    // Kernel cleans expired logs after a checkpoint of a snapshot loaded as the latest (here:
    // commits 0..19, before the old checkpoint at 20); the compactor's checkpoint must not, or a
    // dry run would delete and the report would not know.
    assertThat(outcome.status()).isEqualTo(CheckpointOutcome.Status.WRITTEN);
    try (Stream<Path> files = Files.list(log)) {
      assertThat(files.sorted().toList())
          .containsAll(before)
          .contains(
              log.resolve("00000000000000000030.checkpoint.parquet"),
              log.resolve("_last_checkpoint"));
    }
  }
}
