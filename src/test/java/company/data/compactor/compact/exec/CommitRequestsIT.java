package company.data.compactor.compact.exec;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.compact.CompactionOptions;
import company.data.compactor.compact.CompactionPlanner;
import company.data.compactor.compact.CompactionResult;
import company.data.compactor.compact.Layout;
import company.data.compactor.compact.PartitionFilter;
import company.data.compactor.compact.PartitionResult;
import company.data.compactor.delta.CommitOutcome;
import company.data.compactor.delta.RewriteCommitter;
import company.data.compactor.delta.kernel.KernelDeletionVectorLoader;
import company.data.compactor.delta.kernel.KernelDeltaTables;
import company.data.compactor.delta.kernel.KernelRewriteCommitter;
import company.data.compactor.delta.kernel.TypedTables;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.storage.Storage;
import company.data.compactor.storage.StoredObject;
import company.data.compactor.testing.DuckDb;
import company.data.compactor.testing.ForwardingStorage;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The storage requests each partition's commit makes: on an object store every one is a round trip,
 * and a run commits its partitions one after another.
 */
class CommitRequestsIT {

  @TempDir Path dir;

  @Test
  void eachPartitionsCommit_makesAFewRequests_notOnePerLogVersion() throws Exception {
    TableLocation location = TableLocation.parse("t", dir);
    TypedTables typed = new TypedTables();
    typed.create(
        location, new StructType().add("id", LongType.LONG).add("p", StringType.STRING), "p");
    int partitions = 4;
    int filesEach = 10;
    for (int p = 0; p < partitions; p++) {
      for (int i = 0; i < filesEach; i++) {
        typed.append(
            location,
            "p",
            "p" + p,
            "SELECT range AS id FROM range(" + (i * 10) + ", " + (i * 10 + 10) + ")",
            "f" + p + "_" + i);
      }
    }
    LocalStorage local = new LocalStorage();
    TableSnapshot before = new KernelDeltaTables(local).loadLatest(location);
    // Only the committer sees the table as on an object store; the rewrite reads it in place.
    Counting counting = new Counting(local);
    List<Map<String, Integer>> perCommit = new ArrayList<>();
    KernelRewriteCommitter kernel = new KernelRewriteCommitter(counting, Clock.systemUTC());
    RewriteCommitter measured =
        commit -> {
          counting.calls.clear();
          CommitOutcome outcome = kernel.commitRewrite(commit);
          perCommit.add(new TreeMap<>(counting.calls));
          return outcome;
        };
    CompactionOptions options =
        new CompactionOptions(
            1 << 20,
            2,
            128 << 20,
            1L << 30,
            PartitionFilter.all(),
            OptionalLong.empty(),
            Layout.BIN_PACK,
            List.of());

    CompactionResult result =
        new CompactionExecutor(
                local,
                measured,
                new KernelDeletionVectorLoader(local),
                RewriteSettings.defaults(),
                dir.resolve("scratch"),
                Clock.systemUTC())
            .execute(CompactionPlanner.plan(before, options), before);

    // The first commit loads the table at the read version: the log's tail (41 commits, no
    // checkpoint, as _last_checkpoint's absence says) fetched 16 at a time, then replayed from
    // memory for the protocol and metadata and for the domain metadata. The next commits reuse it
    // once a HEAD of the read version's commit file shows the log still leads to it, and step over
    // the run's own commits from memory: one conditional PUT and two HEADs each.
    // Before: 131, 92, 95 and 98 requests in a row (82 commit reads one at a time; a full
    // checksum replaying the log after every commit; the snapshot loaded again for every
    // partition; one PUT + GET per earlier partition's commit).
    assertThat(perCommit)
        .containsExactly(
            Map.of("get", 1, "get.json", 41, "head.json", 1, "list", 3, "putIfAbsent.json", 1),
            Map.of("head.json", 2, "putIfAbsent.json", 1),
            Map.of("head.json", 2, "putIfAbsent.json", 1),
            Map.of("head.json", 2, "putIfAbsent.json", 1));
    assertThat(result.partitions())
        .hasSize(partitions)
        .allSatisfy(p -> assertThat(p.status()).isEqualTo(PartitionResult.Status.COMMITTED));
    TableSnapshot after = new KernelDeltaTables(local).loadLatest(location);
    assertThat(after.version()).isEqualTo(before.version() + partitions);
    assertThat(after.activeFiles()).hasSize(partitions);
    assertThat(DuckDb.checksum(after.activeFiles(), List.of("id")))
        .isEqualTo(DuckDb.checksum(before.activeFiles(), List.of("id")));
  }

  /** Counts calls by kind. */
  private static final class Counting extends ForwardingStorage {
    final Map<String, Integer> calls = new java.util.concurrent.ConcurrentHashMap<>();

    Counting(Storage delegate) {
      super(delegate);
    }

    /** As an object store: nothing is a local file. */
    @Override
    public java.util.Optional<Path> localFile(String path) {
      return java.util.Optional.empty();
    }

    private void count(String kind, String path) {
      String name = path.substring(path.lastIndexOf('/') + 1);
      String ext = name.contains(".") ? name.substring(name.indexOf('.')) : "";
      calls.merge(kind + ext, 1, Integer::sum);
    }

    @Override
    public List<StoredObject> listFrom(String path) throws IOException {
      count("list", "");
      return super.listFrom(path);
    }

    @Override
    public StoredObject stat(String path) throws IOException {
      count("head", path);
      return super.stat(path);
    }

    @Override
    public InputStream openFrom(String path, long offset) throws IOException {
      count("get", path);
      return super.openFrom(path, offset);
    }

    @Override
    public OutputStream create(String path) throws IOException {
      count("put", path);
      return super.create(path);
    }

    @Override
    public boolean putIfAbsent(String path, byte[] content) throws IOException {
      count("putIfAbsent", path);
      return super.putIfAbsent(path, content);
    }
  }
}
