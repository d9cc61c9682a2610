package company.data.compactor.compact.exec;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.testing.DuckDb;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bin-packing the demo table end to end on local disk. */
class DemoCompactionIT {

  private static final List<String> DATA_COLUMNS =
      List.of("event_id", "customer_id", "event_type", "amount");

  @TempDir Path dir;

  private final LocalStorage storage = new LocalStorage();
  private final KernelDeltaTables tables = new KernelDeltaTables(storage);

  private CompactionOptions options() {
    return new CompactionOptions(
        ByteSizes.mbToBytes(128),
        40.0,
        ByteSizes.mbToBytes(128),
        1L << 30,
        PartitionFilter.all(),
        OptionalLong.empty(),
        Layout.BIN_PACK,
        List.of());
  }

  private CompactionExecutor executor() {
    return new CompactionExecutor(
        storage,
        new KernelRewriteCommitter(storage, Clock.systemUTC()),
        new KernelDeletionVectorLoader(storage),
        RewriteSettings.defaults(),
        dir.resolve("scratch"),
        Clock.systemUTC());
  }

  @Test
  void demo_thirtyFilesBecomeThree_rowsAndChecksumUnchanged_andASecondRunPlansNothing()
      throws Exception {
    TableLocation location = TableLocation.parse("demo", dir);
    new DemoSeeder(storage, tables, new KernelTableWriter(storage)).seed(location);
    TableSnapshot before = tables.loadLatest(location);
    String checksumBefore = DuckDb.checksum(before.activeFiles(), DATA_COLUMNS);

    CompactionPlan plan = CompactionPlanner.plan(before, options());
    CompactionResult result = executor().execute(plan, before);
    TableSnapshot after = tables.loadLatest(location);

    assertThat(plan.bins()).hasSize(3);
    assertThat(result.partitions())
        .extracting(PartitionResult::status)
        .containsOnly(PartitionResult.Status.COMMITTED);
    assertThat(result.filesRemoved()).isEqualTo(30);
    assertThat(result.filesAdded()).isEqualTo(3);
    assertThat(result.rowsRewritten()).isEqualTo(1500);
    assertThat(result.versionBefore()).isEqualTo(30);
    assertThat(result.versionAfter()).isEqualTo(33);
    assertThat(after.version()).isEqualTo(33);
    assertThat(after.activeFiles()).hasSize(3);
    assertThat(after.activeFiles())
        .extracting(f -> f.partition().label())
        .containsExactlyInAnyOrder(
            "event_date=2026-10-17", "event_date=2026-10-18", "event_date=2026-10-19");
    assertThat(after.activeFiles()).allSatisfy(f -> assertThat(f.numRecords()).hasValue(500));
    assertThat(DuckDb.checksum(after.activeFiles(), DATA_COLUMNS))
        .isEqualTo(checksumBefore)
        .startsWith("1500:");
    assertThat(DuckDb.countAndSum(after.activeFiles(), "amount").sum()).isEqualTo(73125.0);
    for (DataFile file : after.activeFiles()) {
      assertThat(file.path()).contains("/demo/" + file.partition().label() + "/");
    }
    assertThat(Files.list(dir.resolve("scratch")).toList()).as("scratch deleted").isEmpty();

    assertThat(CompactionPlanner.plan(after, options()).isEmpty()).isTrue();
  }

  @Test
  void commit_recordsOptimizeWithReadVersionMetricsAndDataChangeFalse() throws Exception {
    TableLocation location = TableLocation.parse("demo", dir);
    new DemoSeeder(storage, tables, new KernelTableWriter(storage)).seed(location);
    TableSnapshot before = tables.loadLatest(location);
    executor().execute(CompactionPlanner.plan(before, options()), before);

    ObjectMapper json = new ObjectMapper();
    List<JsonNode> actions =
        Files.readAllLines(dir.resolve("demo/_delta_log/%020d.json".formatted(31))).stream()
            .map(
                line -> {
                  try {
                    return json.readTree(line);
                  } catch (Exception e) {
                    throw new RuntimeException(e);
                  }
                })
            .toList();
    JsonNode info =
        actions.stream()
            .filter(a -> a.has("commitInfo"))
            .findFirst()
            .orElseThrow()
            .get("commitInfo");
    assertThat(info.get("operation").asText()).isEqualTo("OPTIMIZE");
    assertThat(info.get("readVersion").asLong()).isEqualTo(30);
    assertThat(info.get("isBlindAppend").asBoolean()).isFalse();
    assertThat(info.get("operationParameters").get("targetSize").asText()).isEqualTo("134217728");
    assertThat(info.get("operationMetrics").get("numRemovedFiles").asText()).isEqualTo("10");
    assertThat(info.get("operationMetrics").get("numAddedFiles").asText()).isEqualTo("1");
    assertThat(info.get("operationMetrics").get("numOutputRows").asText()).isEqualTo("500");

    List<JsonNode> removes =
        actions.stream().filter(a -> a.has("remove")).map(a -> a.get("remove")).toList();
    List<JsonNode> adds =
        actions.stream().filter(a -> a.has("add")).map(a -> a.get("add")).toList();
    assertThat(removes)
        .hasSize(10)
        .allSatisfy(
            r -> {
              assertThat(r.get("dataChange").asBoolean()).isFalse();
              assertThat(r.get("deletionTimestamp").asLong()).isPositive();
              assertThat(r.get("partitionValues").get("event_date").asText())
                  .isEqualTo("2026-10-17");
            });
    assertThat(adds)
        .singleElement()
        .satisfies(
            a -> {
              assertThat(a.get("dataChange").asBoolean()).isFalse();
              assertThat(a.get("path").asText())
                  .startsWith("event_date=2026-10-17/part-")
                  .endsWith(".zstd.parquet");
              assertThat(a.get("stats").isTextual()).as("stats must be a JSON string").isTrue();
              JsonNode stats = json.readTree(a.get("stats").asText());
              assertThat(stats.get("numRecords").asLong()).isEqualTo(500);
              assertThat(stats.get("minValues").get("amount").asDouble()).isEqualTo(3.75);
              assertThat(stats.get("maxValues").get("amount").asDouble()).isEqualTo(93.75);
              assertThat(stats.get("minValues").get("customer_id").asText()).isEqualTo("CUST_0000");
              assertThat(stats.get("maxValues").get("customer_id").asText()).isEqualTo("CUST_0039");
              assertThat(stats.get("nullCount").get("event_id").asLong()).isZero();
              assertThat(stats.has("event_date")).isFalse();
            });
  }
}
