package company.data.compactor.compact.exec;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.compact.Bin;
import company.data.compactor.compact.CompactionOptions;
import company.data.compactor.compact.CompactionPlan;
import company.data.compactor.compact.CompactionPlanner;
import company.data.compactor.compact.CompactionResult;
import company.data.compactor.compact.Layout;
import company.data.compactor.compact.PartitionFilter;
import company.data.compactor.compact.PartitionResult;
import company.data.compactor.delta.kernel.KernelDeletionVectorLoader;
import company.data.compactor.delta.kernel.KernelDeltaTables;
import company.data.compactor.delta.kernel.KernelRewriteCommitter;
import company.data.compactor.delta.kernel.KernelTableWriter;
import company.data.compactor.demo.DemoSeeder;
import company.data.compactor.model.ByteSizes;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSchema;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.testing.DuckDb;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mutation checks of verification: a writer broken in each way a buggy engine could break it (loses
 * a row, drops, swaps or nulls a column, moves rows into another partition) must be refused, with
 * nothing uploaded or committed for that partition, while healthy partitions commit.
 */
class VerificationIT {

  private static final String BROKEN = "event_date=2026-10-18";
  private static final List<String> COLUMNS =
      List.of("event_id", "customer_id", "event_type", "amount");

  @TempDir Path dir;

  private final LocalStorage storage = new LocalStorage();
  private final KernelDeltaTables tables = new KernelDeltaTables(storage);
  private TableLocation location;
  private TableSnapshot before;
  private String checksum;

  @BeforeEach
  void seed() throws Exception {
    location = TableLocation.parse("demo", dir);
    new DemoSeeder(storage, tables, new KernelTableWriter(storage)).seed(location);
    before = tables.loadLatest(location);
    checksum = DuckDb.checksum(before.activeFiles(), COLUMNS);
  }

  @Test
  void writerLosingARow_isRefused() throws Exception {
    assertRefused(tamper("SELECT * FROM t LIMIT (SELECT count(*) - 1 FROM t)"), "rows 500 -> 499");
  }

  @Test
  void writerDroppingAColumn_isRefused() throws Exception {
    assertRefused(tamper("SELECT * EXCLUDE (event_type) FROM t"), "non-null event_type 500 -> 0");
  }

  @Test
  void writerNullingAColumn_isRefused() throws Exception {
    assertRefused(
        tamper("SELECT * REPLACE (CAST(NULL AS DOUBLE) AS amount) FROM t"),
        "non-null amount 500 -> 0");
  }

  @Test
  void writerSwappingTwoColumns_isRefused() throws Exception {
    assertRefused(
        tamper("SELECT * REPLACE (customer_id AS event_type, event_type AS customer_id) FROM t"),
        "checksum ");
  }

  @Test
  void writerChangingOneValue_isRefused() throws Exception {
    assertRefused(
        tamper(
            "SELECT * REPLACE (CASE WHEN event_id = (SELECT min(event_id) FROM t) THEN amount + 1 ELSE amount END AS amount) FROM t"),
        "checksum ");
  }

  /**
   * Rows of another partition rewritten into this one: same rows and columns, other partition
   * values.
   */
  @Test
  void rowsMovedIntoAnotherPartition_areRefused() throws Exception {
    CompactionPlan plan = CompactionPlanner.plan(before, options());
    Bin target =
        plan.bins().stream()
            .filter(b -> b.partition().label().equals(BROKEN))
            .findFirst()
            .orElseThrow();
    Bin other = plan.bins().stream().filter(b -> b != target).findFirst().orElseThrow();
    List<DataFile> mixed = new java.util.ArrayList<>(target.files());
    mixed.add(other.files().get(0));
    Bin moving =
        new Bin(target.partition(), mixed, target.inputBytes() + other.files().get(0).sizeBytes());
    CompactionPlan broken =
        new CompactionPlan(
            plan.readVersion(),
            plan.options(),
            true,
            List.of(moving),
            List.of(),
            plan.partitions(),
            0);

    CompactionResult result = executor(DuckDbRewriter::new).execute(broken, before);

    assertThat(result.partitions())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.status()).isEqualTo(PartitionResult.Status.VERIFICATION_FAILED);
              assertThat(p.detail())
                  .contains("checksum ")
                  .doesNotContain("rows ")
                  .endsWith("nothing was committed");
            });
    assertThat(tables.loadLatest(location).version()).isEqualTo(before.version());
    assertThat(DuckDb.checksum(tables.loadLatest(location).activeFiles(), COLUMNS))
        .isEqualTo(checksum);
  }

  /**
   * The rewriter opens when the first bin is rewritten (after the verifier measured its inputs),
   * once for all partitions; one that cannot open fails the compaction with nothing written or
   * committed.
   */
  @Test
  void theRewriterOpensOnceAtTheFirstRewrite_andOneThatCannotOpen_failsWithNothingCommitted()
      throws Exception {
    java.util.concurrent.atomic.AtomicInteger opened =
        new java.util.concurrent.atomic.AtomicInteger();
    BinRewriter.Factory failing =
        (settings, scratch) -> {
          opened.incrementAndGet();
          throw new java.sql.SQLException("no database for the writer");
        };

    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> executor(failing).execute(CompactionPlanner.plan(before, options()), before))
        .isInstanceOf(company.data.compactor.error.CompactorException.class)
        .hasMessageContaining("rewriting files of")
        .hasMessageContaining("no database for the writer");
    assertThat(opened).hasValue(1);
    assertThat(tables.loadLatest(location).version()).isEqualTo(before.version());
    try (Stream<Path> files = Files.walk(dir.resolve("demo"))) {
      assertThat(files.filter(p -> p.toString().endsWith(".parquet")))
          .as("nothing written into the table")
          .hasSize(30);
    }

    opened.set(0);
    java.util.concurrent.atomic.AtomicBoolean verifierFirst =
        new java.util.concurrent.atomic.AtomicBoolean();
    CompactionResult result =
        executor(
                (settings, scratch) -> {
                  opened.incrementAndGet();
                  verifierFirst.set(Files.isDirectory(scratch.resolve("verify-home")));
                  return new DuckDbRewriter(settings, scratch);
                })
            .execute(CompactionPlanner.plan(before, options()), before);
    assertThat(result.partitions())
        .hasSize(3)
        .allSatisfy(p -> assertThat(p.status()).isEqualTo(PartitionResult.Status.COMMITTED));
    assertThat(opened).as("one rewriter for the three partitions").hasValue(1);
    assertThat(verifierFirst).as("the verifier's database was taken first").isTrue();
    assertThat(DuckDb.checksum(tables.loadLatest(location).activeFiles(), COLUMNS))
        .isEqualTo(checksum);
  }

  private void assertRefused(BinRewriter.Factory broken, String difference) throws Exception {
    CompactionResult result =
        executor(broken).execute(CompactionPlanner.plan(before, options()), before);
    TableSnapshot after = tables.loadLatest(location);

    assertThat(result.partitions())
        .filteredOn(p -> p.partition().label().equals(BROKEN))
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.status()).isEqualTo(PartitionResult.Status.VERIFICATION_FAILED);
              assertThat(p.detail())
                  .startsWith("readers would see other data after the rewrite (")
                  .contains(difference)
                  .endsWith("nothing was committed");
            });
    assertThat(result.partitions())
        .filteredOn(p -> !p.partition().label().equals(BROKEN))
        .hasSize(2)
        .allSatisfy(p -> assertThat(p.status()).isEqualTo(PartitionResult.Status.COMMITTED));
    assertThat(result.filesRemoved()).isEqualTo(20);
    assertThat(after.version()).isEqualTo(32);
    assertThat(after.activeFiles())
        .filteredOn(f -> f.partition().label().equals(BROKEN))
        .hasSize(10);
    try (Stream<Path> files = Files.list(dir.resolve("demo").resolve(BROKEN))) {
      assertThat(files.filter(p -> p.toString().endsWith(".parquet")))
          .as("nothing uploaded")
          .hasSize(10);
    }
    assertThat(DuckDb.checksum(after.activeFiles(), COLUMNS)).isEqualTo(checksum);
  }

  /**
   * The real writer, whose outputs in the broken partition are then rewritten by {@code select}
   * over {@code t}.
   */
  private static BinRewriter.Factory tamper(String select) {
    return (settings, scratch) -> {
      DuckDbRewriter real = new DuckDbRewriter(settings, scratch);
      return new BinRewriter() {
        @Override
        public List<DuckDbRewriter.Written> rewrite(
            TableLocation table,
            TableSchema schema,
            Map<String, String> properties,
            List<Path> inputs,
            DeletedRows deleted,
            Path outDir,
            long target,
            String compression,
            List<String> orderBy)
            throws java.sql.SQLException, java.io.IOException {
          List<DuckDbRewriter.Written> written =
              real.rewrite(
                  table, schema, properties, inputs, deleted, outDir, target, compression, orderBy);
          if (!inputs.get(0).toString().contains(BROKEN)) {
            return written;
          }
          Path file = written.get(0).path();
          Path copy = file.resolveSibling("tampered.tmp");
          try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
              Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t AS SELECT * FROM read_parquet('" + file + "')");
            s.execute("COPY (" + select + ") TO '" + copy + "' (FORMAT parquet)");
          }
          Files.move(copy, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
          return written;
        }

        @Override
        public void close() throws java.sql.SQLException {
          real.close();
        }
      };
    };
  }

  private CompactionExecutor executor(BinRewriter.Factory rewriters) {
    return new CompactionExecutor(
        storage,
        new KernelRewriteCommitter(storage, Clock.systemUTC()),
        new KernelDeletionVectorLoader(storage),
        RewriteSettings.defaults(),
        dir.resolve("scratch"),
        Clock.systemUTC(),
        rewriters);
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
