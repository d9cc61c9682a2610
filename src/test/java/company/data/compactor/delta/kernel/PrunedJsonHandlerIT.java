package company.data.compactor.delta.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.demo.DemoSeeder;
import company.data.compactor.model.TableLocation;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.testing.HandLoggedTables;
import io.delta.kernel.Snapshot;
import io.delta.kernel.TableManager;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.defaults.internal.json.JsonUtils;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.engine.JsonHandler;
import io.delta.kernel.expressions.Predicate;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PrunedJsonHandler} against kernel's default JSON handler on real logs: a Spark table with
 * deletion vectors, the demo table kernel writes, and a hand-written log of removes carrying every
 * optional field, change-data files and unknown fields. Every schema kernel asks for while it loads
 * a snapshot and lists its files is recorded, and each commit file read with it gives the same rows
 * by both handlers; the snapshot itself (version, protocol, schema, files and their deletion
 * vectors) is the same through both engines.
 */
class PrunedJsonHandlerIT {

  @TempDir Path dir;

  private final LocalStorage storage = new LocalStorage();

  @Test
  void aSparkTableWithDeletionVectors_readsTheSameThroughBothHandlers() throws Exception {
    Path table = dir.resolve("spark-dv");
    copy(Path.of("src/test/resources/tables/spark-dv"), table);
    assertSameReads(new TableLocation("file:" + table));
  }

  @Test
  void theDemoTable_readsTheSameThroughBothHandlers() throws Exception {
    TableLocation table = new TableLocation("file:" + dir.resolve("demo"));
    new DemoSeeder(storage, new KernelDeltaTables(storage), new KernelTableWriter(storage))
        .seed(table);
    assertSameReads(table);
  }

  @Test
  void removesWithEveryFieldAndUnknownActions_readTheSameThroughBothHandlers() throws Exception {
    TableLocation table = new TableLocation("file:" + dir.resolve("hand"));
    String[] start = HandLoggedTables.protocolAndMetadata();
    HandLoggedTables.commit(
        storage,
        table,
        0,
        1_000,
        start[0],
        start[1],
        HandLoggedTables.add("a.parquet"),
        HandLoggedTables.add("b%20c.parquet"),
        HandLoggedTables.add("d.parquet"));
    HandLoggedTables.commit(
        storage,
        table,
        1,
        2_000,
        "{\"remove\":{\"path\":\"a.parquet\",\"dataChange\":false,\"deletionTimestamp\":2000,"
            + "\"extendedFileMetadata\":true,\"partitionValues\":{},\"size\":8,"
            + "\"stats\":\"{\\\"numRecords\\\":1}\",\"tags\":{\"k\":\"v\"},\"future\":[1,{\"x\":2}]}}",
        "{\"cdc\":{\"path\":\"_change_data/c.parquet\",\"partitionValues\":{},\"size\":3,"
            + "\"dataChange\":false}}",
        "{\"futureAction\":{\"anything\":[{\"add\":{\"path\":\"not-an-add.parquet\"}}]}}",
        "{\"txn\":{\"appId\":\"ingest\",\"version\":7,\"lastUpdated\":2000}}");
    HandLoggedTables.commit(
        storage,
        table,
        2,
        3_000,
        "{\"remove\":{\"path\":\"b%20c.parquet\",\"deletionTimestamp\":3000,\"dataChange\":true},"
            + "\"remove\":{\"path\":\"d.parquet\",\"deletionTimestamp\":3000,\"dataChange\":true}}",
        HandLoggedTables.add("e.parquet"));
    assertSameReads(table);
  }

  private void assertSameReads(TableLocation table) throws IOException {
    DefaultEngine plain = DefaultEngine.create(new StorageFileIO(storage, Map.of()));
    Recording recording =
        new Recording(
            new PrunedJsonHandler(new StorageFileIO(storage, Map.of()), plain.getJsonHandler()));
    Engine pruned = KernelEngines.withJson(plain, recording);

    assertThat(snapshotOf(table, pruned)).isEqualTo(snapshotOf(table, plain));
    assertThat(recording.schemas).as("the schemas kernel read the log with").isNotEmpty();

    List<FileStatus> commits = new ArrayList<>();
    for (var object : storage.listFrom(table.child("_delta_log/" + "0".repeat(20)))) {
      if (object.name().endsWith(".json")) {
        commits.add(
            FileStatus.of(object.path(), object.sizeBytes(), object.modificationTimeMillis()));
      }
    }
    assertThat(commits).isNotEmpty();
    for (StructType schema : recording.schemas) {
      assertThat(rows(recording, commits, schema))
          .as("the log read as %s", schema)
          .isEqualTo(rows(plain.getJsonHandler(), commits, schema))
          .isNotEmpty();
    }
  }

  /** What a run takes from a snapshot, as text: version, protocol, schema and every scan file. */
  private static List<String> snapshotOf(TableLocation table, Engine engine) throws IOException {
    Snapshot snapshot = TableManager.loadSnapshot(table.uri()).build(engine);
    List<String> seen = new ArrayList<>();
    seen.add("version " + snapshot.getVersion());
    seen.add("protocol " + snapshot.getProtocol());
    seen.add("schema " + snapshot.getSchema());
    seen.add("properties " + snapshot.getTableProperties());
    try (CloseableIterator<FilteredColumnarBatch> batches =
        snapshot.getScanBuilder().build().getScanFiles(engine, true)) {
      while (batches.hasNext()) {
        try (CloseableIterator<Row> rows = batches.next().getRows()) {
          while (rows.hasNext()) {
            seen.add(JsonUtils.rowToJson(rows.next()));
          }
        }
      }
    }
    return seen;
  }

  private static List<String> rows(JsonHandler handler, List<FileStatus> files, StructType schema)
      throws IOException {
    List<String> rows = new ArrayList<>();
    try (CloseableIterator<ColumnarBatch> batches =
        handler.readJsonFiles(
            io.delta.kernel.internal.util.Utils.toCloseableIterator(files.iterator()),
            schema,
            Optional.empty())) {
      while (batches.hasNext()) {
        ColumnarBatch batch = batches.next();
        try (CloseableIterator<Row> each = batch.getRows()) {
          while (each.hasNext()) {
            Row row = each.next();
            rows.add(row == null ? "null" : JsonUtils.rowToJson(row));
          }
        }
      }
    } catch (RuntimeException e) {
      // A schema kernel reads only some commits with (a required field other commits lack)
      // fails on the others: both handlers must fail there, the same way.
      rows.add("failed: " + e.getClass().getName() + ": " + e.getMessage());
    }
    return rows;
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path file : files.toList()) {
        Path target = to.resolve(from.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(target);
        } else {
          Files.copy(file, target);
        }
      }
    }
  }

  /** The pruned handler, recording each schema it is asked to read the log with. */
  private static final class Recording implements JsonHandler {
    final Set<StructType> schemas = new LinkedHashSet<>();
    private final JsonHandler handler;

    Recording(JsonHandler handler) {
      this.handler = handler;
    }

    @Override
    public io.delta.kernel.data.ColumnarBatch parseJson(
        io.delta.kernel.data.ColumnVector json,
        StructType schema,
        Optional<io.delta.kernel.data.ColumnVector> selection) {
      return handler.parseJson(json, schema, selection);
    }

    @Override
    public CloseableIterator<ColumnarBatch> readJsonFiles(
        CloseableIterator<FileStatus> files, StructType schema, Optional<Predicate> predicate)
        throws IOException {
      schemas.add(schema);
      return handler.readJsonFiles(files, schema, predicate);
    }

    @Override
    public void writeJsonFileAtomically(String path, CloseableIterator<Row> data, boolean overwrite)
        throws IOException {
      handler.writeJsonFileAtomically(path, data, overwrite);
    }
  }
}
