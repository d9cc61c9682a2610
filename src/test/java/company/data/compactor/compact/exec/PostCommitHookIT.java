package company.data.compactor.compact.exec;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.compact.CompactionOptions;
import company.data.compactor.compact.CompactionPlanner;
import company.data.compactor.compact.CompactionResult;
import company.data.compactor.compact.Layout;
import company.data.compactor.compact.PartitionFilter;
import company.data.compactor.compact.PartitionResult;
import company.data.compactor.delta.kernel.KernelDeletionVectorLoader;
import company.data.compactor.delta.kernel.KernelDeltaTables;
import company.data.compactor.delta.kernel.KernelRewriteCommitter;
import company.data.compactor.delta.kernel.TypedTables;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.storage.Storage;
import company.data.compactor.testing.DuckDb;
import company.data.compactor.testing.ForwardingStorage;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A checkpoint that fails after the commit landed is reported, not fatal. */
class PostCommitHookIT {

  @TempDir Path dir;

  @Test
  void failingCheckpoint_afterASuccessfulCommit_isReported_andTheTableIsFine() throws Exception {
    TableLocation location = TableLocation.parse("t", dir);
    TypedTables typed = new TypedTables();
    typed.create(
        location,
        new StructType().add("id", LongType.LONG).add("p", StringType.STRING),
        "p",
        Map.of("delta.checkpointInterval", "1"));
    for (int i = 0; i < 3; i++) {
      typed.append(
          location,
          "p",
          "a",
          "SELECT range AS id FROM range(" + (i * 10) + ", " + (i * 10 + 10) + ")",
          "f" + i);
    }
    LocalStorage local = new LocalStorage();
    TableSnapshot before = new KernelDeltaTables(local).loadLatest(location);
    Storage noCheckpoints = new NoCheckpoints(local);
    CompactionOptions options =
        new CompactionOptions(
            1 << 20,
            40,
            128 << 20,
            1L << 30,
            PartitionFilter.all(),
            OptionalLong.empty(),
            Layout.BIN_PACK,
            List.of());

    CompactionResult result =
        new CompactionExecutor(
                noCheckpoints,
                new KernelRewriteCommitter(noCheckpoints, Clock.systemUTC()),
                new KernelDeletionVectorLoader(noCheckpoints),
                RewriteSettings.defaults(),
                dir.resolve("scratch"),
                Clock.systemUTC())
            .execute(CompactionPlanner.plan(before, options), before);
    TableSnapshot after = new KernelDeltaTables(local).loadLatest(location);

    assertThat(result.partitions())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.status()).isEqualTo(PartitionResult.Status.COMMITTED);
              assertThat(p.hookFailures())
                  .anySatisfy(f -> assertThat(f).startsWith("CHECKPOINT: ").contains("injected"));
            });
    assertThat(after.version()).isEqualTo(before.version() + 1);
    assertThat(after.activeFiles()).hasSize(1);
    assertThat(DuckDb.checksum(after.activeFiles(), List.of("id")))
        .isEqualTo(DuckDb.checksum(before.activeFiles(), List.of("id")));
    try (var log = Files.list(dir.resolve("t/_delta_log"))) {
      assertThat(log.map(p -> p.getFileName().toString()))
          .noneMatch(n -> n.endsWith("%020d.checkpoint.parquet".formatted(after.version())));
    }
  }

  /** Storage that cannot write checkpoint files. */
  private static final class NoCheckpoints extends ForwardingStorage {
    NoCheckpoints(Storage delegate) {
      super(delegate);
    }

    @Override
    public OutputStream create(String path) throws IOException {
      if (path.contains(".checkpoint")) {
        throw new IOException("injected: checkpoint storage unavailable");
      }
      return super.create(path);
    }

    @Override
    public boolean putIfAbsent(String path, byte[] content) throws IOException {
      if (path.contains(".checkpoint")) {
        throw new IOException("injected: checkpoint storage unavailable");
      }
      return super.putIfAbsent(path, content);
    }
  }
}
