package company.data.compactor.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.delta.kernel.KernelDeltaTables;
import company.data.compactor.delta.kernel.KernelTableWriter;
import company.data.compactor.error.CompactorException;
import company.data.compactor.inspect.PartitionHealth;
import company.data.compactor.inspect.TableHealth;
import company.data.compactor.inspect.TableInspector;
import company.data.compactor.model.ByteSizes;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.testing.DuckDb;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeds the demo table as the product does (data files by DuckDB, commits through kernel) on local
 * disk and checks it with independent readers.
 */
class DemoSeederIT {

  @TempDir Path dir;

  private final LocalStorage storage = new LocalStorage();
  private final KernelDeltaTables tables = new KernelDeltaTables(storage);
  private KernelTableWriter writer;
  private DemoSeeder seeder;

  @org.junit.jupiter.api.BeforeEach
  void seederAsTheProductWiresIt() {
    writer = KernelTableWriter.withDuckDbDataFiles(storage, dir.resolve("scratch"));
    seeder = new DemoSeeder(storage, tables, writer);
  }

  @Test
  void seed_writesThirtyCommitsOfFiftyRows_overThreePartitions_readableByDuckDb() throws Exception {
    TableLocation location = TableLocation.parse("demo", dir);

    long version = seeder.seed(location);
    TableSnapshot snapshot = tables.loadLatest(location);
    TableHealth health = TableInspector.inspect(snapshot, ByteSizes.mbToBytes(128), 40.0);

    assertThat(version).isEqualTo(30);
    assertThat(snapshot.version()).isEqualTo(30);
    assertThat(health.totalFiles()).isEqualTo(30);
    assertThat(health.partitions())
        .extracting(PartitionHealth::partition, PartitionHealth::fileCount)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("event_date=2026-10-17", 10),
            org.assertj.core.groups.Tuple.tuple("event_date=2026-10-18", 10),
            org.assertj.core.groups.Tuple.tuple("event_date=2026-10-19", 10));
    assertThat(health.totalRows()).isEqualTo(1500L);
    assertThat(health.smallFileRatioPct()).isEqualTo(100.0);
    assertThat(health.compactionRequired()).isTrue();

    DuckDb.CountAndSum read = DuckDb.countAndSum(snapshot.activeFiles(), "amount");
    assertThat(read.rows()).isEqualTo(1500);
    assertThat(read.sum()).isEqualTo(DemoTable.totalAmount()).isEqualTo(73125.0);
  }

  @Test
  void append_afterAnotherWritersCommit_doesNotReuseTheSnapshotItsOwnCommitLeft() throws Exception {
    TableLocation location = TableLocation.parse("demo", dir);
    seeder.seed(location);
    KernelTableWriter other = new KernelTableWriter(storage);
    // Removed and created again by someone else, shorter: the snapshot our last commit left (30)
    // would commit version 31 after a gap and break the table.
    try (Stream<Path> files = Files.walk(dir.resolve("demo"))) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
    other.create(location, DemoTable.SCHEMA, DemoTable.properties());
    other.append(location, DemoTable.partitionOf(0), DemoTable.rowsOf(0));

    assertThat(writer.append(location, DemoTable.partitionOf(1), DemoTable.rowsOf(1))).isEqualTo(2);
    assertThat(tables.loadLatest(location).activeFiles()).hasSize(2);

    // Appended to by someone else in between: ours lands after theirs, every row there.
    assertThat(other.append(location, DemoTable.partitionOf(2), DemoTable.rowsOf(2))).isEqualTo(3);
    assertThat(writer.append(location, DemoTable.partitionOf(0), DemoTable.rowsOf(0))).isEqualTo(4);
    TableSnapshot snapshot = tables.loadLatest(location);
    assertThat(snapshot.activeFiles()).hasSize(4);
    assertThat(DuckDb.countAndSum(snapshot.activeFiles(), "amount").rows()).isEqualTo(200);
  }

  @Test
  void seed_logsOneAppendPerCommit_withStatsAsAJsonString() throws Exception {
    TableLocation location = TableLocation.parse("demo", dir);
    seeder.seed(location);

    ObjectMapper json = new ObjectMapper();
    List<JsonNode> adds = new ArrayList<>();
    for (int v = 1; v <= 30; v++) {
      Path commit = dir.resolve("demo/_delta_log/%020d.json".formatted(v));
      List<JsonNode> actions =
          Files.readAllLines(commit).stream().map(line -> readTree(json, line)).toList();
      List<JsonNode> commitAdds =
          actions.stream().filter(a -> a.has("add")).map(a -> a.get("add")).toList();
      assertThat(commitAdds).as("commit %d", v).hasSize(1);
      adds.addAll(commitAdds);
    }
    for (JsonNode add : adds) {
      assertThat(add.get("stats").isTextual()).isTrue();
      JsonNode stats = json.readTree(add.get("stats").asText());
      assertThat(stats.get("numRecords").asLong()).isEqualTo(50);
      assertThat(stats.get("minValues").get("customer_id").asText()).startsWith("CUST_");
      assertThat(stats.get("maxValues").get("amount").asDouble()).isEqualTo(93.75);
      assertThat(stats.get("nullCount").get("event_id").asLong()).isZero();
    }
  }

  @Test
  void seed_again_startsFromAFreshDemoTable() throws Exception {
    TableLocation location = TableLocation.parse("demo", dir);
    seeder.seed(location);
    seeder.seed(location);

    TableSnapshot snapshot = tables.loadLatest(location);
    assertThat(snapshot.version()).isEqualTo(30);
    assertThat(snapshot.activeFiles()).hasSize(30);
    try (Stream<Path> parquet = Files.walk(dir.resolve("demo"))) {
      assertThat(parquet.filter(p -> p.toString().endsWith(".parquet"))).hasSize(30);
    }
    assertThat(DuckDb.countAndSum(snapshot.activeFiles(), "amount").rows()).isEqualTo(1500);
  }

  @Test
  void seed_refusesToReplaceATableItDidNotSeed_andLeavesItUntouched() throws Exception {
    TableLocation location = TableLocation.parse("real", dir);
    writer.create(location, DemoTable.SCHEMA, Map.of());
    writer.append(location, DemoTable.partitionOf(0), DemoTable.rowsOf(0));

    CompactorException e =
        catchThrowableOfType(CompactorException.class, () -> seeder.seed(location));

    assertThat(e.kind()).isEqualTo(CompactorException.Kind.REFUSED);
    assertThat(e.getMessage()).contains("a Delta table the compactor did not seed is there");
    assertThat(tables.loadLatest(location).version()).isEqualTo(1);
  }

  @Test
  void seed_refusesADirectoryWithOtherFiles() throws Exception {
    Files.createDirectories(dir.resolve("notes"));
    Files.writeString(dir.resolve("notes/todo.txt"), "keep me");

    CompactorException e =
        catchThrowableOfType(
            CompactorException.class, () -> seeder.seed(TableLocation.parse("notes", dir)));

    assertThat(e.getMessage()).contains("1 files are there and they are not a Delta table");
    assertThat(dir.resolve("notes/todo.txt")).hasContent("keep me");
  }

  private static JsonNode readTree(ObjectMapper json, String line) {
    try {
      return json.readTree(line);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
