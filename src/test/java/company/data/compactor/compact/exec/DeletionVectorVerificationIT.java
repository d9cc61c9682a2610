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
import company.data.compactor.model.ByteSizes;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSchema;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.testing.DeletionVectorTables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Verification of a rewrite that must drop deleted rows measures the inputs its own way (all rows
 * less those the vectors name), so a writer that ignores the deletion vectors, or drops the wrong
 * rows, is refused with nothing uploaded or committed.
 */
class DeletionVectorVerificationIT {

  @TempDir Path dir;

  private final LocalStorage storage = new LocalStorage();
  private final KernelDeltaTables tables = new KernelDeltaTables(storage);

  /** The real writer, handed other deleted rows than the vectors' (a broken filter). */
  private static BinRewriter.Factory withDeleted(
      java.util.function.Function<List<Path>, DeletedRows> deleted) {
    return (settings, scratch) -> {
      DuckDbRewriter real = new DuckDbRewriter(settings, scratch);
      return new BinRewriter() {
        @Override
        public List<DuckDbRewriter.Written> rewrite(
            TableLocation table,
            TableSchema schema,
            Map<String, String> properties,
            List<Path> inputs,
            DeletedRows ignored,
            Path outDir,
            long target,
            String compression,
            List<String> orderBy)
            throws java.sql.SQLException, java.io.IOException {
          return real.rewrite(
              table,
              schema,
              properties,
              inputs,
              deleted.apply(inputs),
              outDir,
              target,
              compression,
              orderBy);
        }

        @Override
        public void close() throws java.sql.SQLException {
          real.close();
        }
      };
    };
  }

  private void assertRefused(BinRewriter.Factory broken, String difference) throws Exception {
    DeletionVectorTables.inlineDeletionVector(dir.resolve("dv"));
    TableLocation location = TableLocation.parse("dv", dir);
    TableSnapshot before = tables.loadLatest(location);

    CompactionResult result =
        new CompactionExecutor(
                storage,
                new KernelRewriteCommitter(storage, Clock.systemUTC()),
                new KernelDeletionVectorLoader(storage),
                RewriteSettings.defaults(),
                dir.resolve("scratch"),
                Clock.systemUTC(),
                broken)
            .execute(CompactionPlanner.plan(before, options()), before);

    assertThat(result.partitions())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.status()).isEqualTo(PartitionResult.Status.VERIFICATION_FAILED);
              assertThat(p.detail())
                  .startsWith("readers would see other data after the rewrite (")
                  .contains(difference)
                  .endsWith("nothing was committed");
            });
    assertThat(tables.loadLatest(location).version()).isZero();
    try (Stream<Path> files = Files.list(dir.resolve("dv"))) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .as("nothing uploaded")
          .containsExactlyInAnyOrder("a.parquet", "b.parquet", "_delta_log");
    }
  }

  @Test
  void writerIgnoringTheDeletionVectors_isRefused() throws Exception {
    assertRefused(withDeleted(inputs -> DeletedRows.NONE), "rows 5 -> 6");
  }

  @Test
  void writerDroppingTheWrongRow_isRefused() throws Exception {
    // Row 0 of a.parquet instead of row 1: as many rows, other values.
    assertRefused(
        withDeleted(inputs -> DeletedRows.of(Map.of(inputs.get(0), new long[] {0}))), "checksum ");
  }

  private static CompactionOptions options() {
    return new CompactionOptions(
        ByteSizes.mbToBytes(128),
        40,
        ByteSizes.mbToBytes(128),
        1L << 30,
        PartitionFilter.all(),
        OptionalLong.empty(),
        Layout.BIN_PACK,
        List.of());
  }
}
