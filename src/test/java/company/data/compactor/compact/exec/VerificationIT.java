package company.data.compactor.compact.exec;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.compact.CompactionOptions;
import company.data.compactor.compact.CompactionPlanner;
import company.data.compactor.compact.CompactionResult;
import company.data.compactor.compact.Layout;
import company.data.compactor.compact.PartitionFilter;
import company.data.compactor.compact.PartitionResult;
import company.data.compactor.delta.kernel.KernelDeltaTables;
import company.data.compactor.delta.kernel.KernelRewriteCommitter;
import company.data.compactor.delta.kernel.KernelTableWriter;
import company.data.compactor.demo.DemoSeeder;
import company.data.compactor.model.ByteSizes;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.testing.DuckDb;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the executor does when a rewrite's outputs do not match its inputs. */
class VerificationIT {

  private static final String BROKEN = "event_date=2026-10-18";

  @TempDir Path dir;

  @Test
  void mismatch_abortsThatPartition_uploadsAndCommitsNothingForIt() throws Exception {
    LocalStorage storage = new LocalStorage();
    KernelDeltaTables tables = new KernelDeltaTables(storage);
    TableLocation location = TableLocation.parse("demo", dir);
    new DemoSeeder(storage, tables, new KernelTableWriter(storage)).seed(location);
    TableSnapshot before = tables.loadLatest(location);
    List<String> columns = List.of("event_id", "customer_id", "event_type", "amount");
    String checksum = DuckDb.checksum(before.activeFiles(), columns);
    // A rewriter that loses a row in one partition, as a buggy engine would.
    BinRewriter.Factory losingARow = (settings, scratch) -> {
      DuckDbRewriter real = new DuckDbRewriter(settings, scratch);
      return new BinRewriter() {
        @Override
        public DuckDbRewriter.Result rewrite(
            TableLocation table, company.data.compactor.model.TableSchema schema, java.util.Map<String, String> properties,
            List<Path> inputs, Path outDir, long target, String compression, List<String> orderBy)
            throws java.sql.SQLException, java.io.IOException {
          DuckDbRewriter.Result result = real.rewrite(table, schema, properties, inputs, outDir, target, compression, orderBy);
          if (!inputs.get(0).toString().contains(BROKEN)) {
            return result;
          }
          return new DuckDbRewriter.Result(result.outputs(), result.input(),
              new DuckDbRewriter.Checksum(result.output().rows() - 1, result.output().hashSum()));
        }

        @Override
        public void close() throws java.sql.SQLException {
          real.close();
        }
      };
    };
    CompactionOptions options =
        new CompactionOptions(ByteSizes.mbToBytes(128), 40, ByteSizes.mbToBytes(128), 1L << 30, PartitionFilter.all(), OptionalLong.empty(), Layout.BIN_PACK, List.of());

    CompactionResult result =
        new CompactionExecutor(storage, new KernelRewriteCommitter(storage, Clock.systemUTC()), RewriteSettings.defaults(),
            dir.resolve("scratch"), Clock.systemUTC(), losingARow)
            .execute(CompactionPlanner.plan(before, options), before);
    TableSnapshot after = tables.loadLatest(location);

    assertThat(result.partitions()).filteredOn(p -> p.partition().equals(BROKEN)).singleElement().satisfies(p -> {
      assertThat(p.status()).isEqualTo(PartitionResult.Status.VERIFICATION_FAILED);
      assertThat(p.detail()).startsWith("inputs had 500 rows").contains("outputs 499").endsWith("nothing was committed");
    });
    assertThat(result.filesRemoved()).isEqualTo(20);
    assertThat(after.version()).isEqualTo(32);
    assertThat(after.activeFiles()).filteredOn(f -> f.partition().label().equals(BROKEN)).hasSize(10);
    try (Stream<Path> files = Files.list(dir.resolve("demo").resolve(BROKEN))) {
      assertThat(files.filter(p -> p.toString().endsWith(".parquet"))).as("nothing uploaded").hasSize(10);
    }
    assertThat(DuckDb.checksum(after.activeFiles(), columns)).isEqualTo(checksum);
  }
}
