package company.data.compactor.compact.exec;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import company.data.compactor.model.ByteSizes;
import company.data.compactor.model.Column;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSchema;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.LocalStorage;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compaction of column-mapped tables (kernel-created, files written by hand as Spark writes them):
 * inputs are matched to the schema by physical name ({@code name} mode) or field id ({@code id}
 * mode), never by the schema's names; outputs carry physical names and field ids, partition values
 * and stats are keyed by physical names; a writer that uses the schema's names is refused.
 */
class ColumnMappingIT {

  @TempDir Path dir;

  private final LocalStorage storage = new LocalStorage();
  private final KernelDeltaTables tables = new KernelDeltaTables(storage);
  private final TypedTables typed = new TypedTables();

  private TableLocation create(String mode) {
    TableLocation location = TableLocation.parse("mapped-" + mode, dir);
    typed.create(
        location,
        new StructType()
            .add("id", LongType.LONG)
            .add("a", StringType.STRING)
            .add("p", StringType.STRING),
        "p",
        Map.of("delta.columnMapping.mode", mode));
    return location;
  }

  private static Column column(TableSnapshot snapshot, String name) {
    return snapshot.schema().column(name).orElseThrow();
  }

  private static String q(String name) {
    return "\"" + name + "\"";
  }

  /**
   * Name mode: each file also holds a column under the schema's name {@code a} (junk a reader by
   * logical name would take) and a dropped column's data under a physical name the schema no longer
   * has; neither may reach the outputs.
   */
  @Test
  void nameMode_readsByPhysicalName_writesPhysicalNamesAndIds_andDropsWhatTheSchemaDropped()
      throws Exception {
    TableLocation location = create("name");
    TableSnapshot empty = tables.loadLatest(location);
    Column id = column(empty, "id");
    Column a = column(empty, "a");
    assertThat(id.physicalName()).startsWith("col-").isNotEqualTo("id");
    assertThat(id.fieldId()).isPresent();
    for (int i = 0; i < 3; i++) {
      typed.appendWithCopyOptions(
          location,
          "p",
          "x",
          "SELECT range AS "
              + q(id.physicalName())
              + ", 'v' || range AS "
              + q(a.physicalName())
              + ", 'junk' AS a, range * 100 AS \"col-dropped\" FROM range("
              + (i * 3)
              + ", "
              + (i * 3 + 3)
              + ")",
          "f" + i,
          "FIELD_IDS {"
              + q(id.physicalName())
              + ": "
              + id.fieldId().getAsInt()
              + ", "
              + q(a.physicalName())
              + ": "
              + a.fieldId().getAsInt()
              + "}");
    }
    TableSnapshot before = tables.loadLatest(location);
    String partitionKey = before.schema().physicalName("p");
    assertThat(partitionKey).startsWith("col-");
    assertThat(before.activeFiles())
        .allSatisfy(f -> assertThat(f.partition().values()).containsEntry("p", "x"));

    CompactionResult result =
        executor(DuckDbRewriter::new).execute(CompactionPlanner.plan(before, options()), before);

    assertThat(result.partitions())
        .singleElement()
        .satisfies(p -> assertThat(p.status()).isEqualTo(PartitionResult.Status.COMMITTED));
    TableSnapshot after = tables.loadLatest(location);
    assertThat(after.activeFiles()).hasSize(1);
    DataFile out = after.activeFiles().get(0);
    assertThat(out.partition().values()).containsExactly(Map.entry("p", "x"));
    assertThat(fields(out))
        .containsExactly(
            id.physicalName() + "#" + id.fieldId().getAsInt(),
            a.physicalName() + "#" + a.fieldId().getAsInt());
    assertThat(rows(out, id, a))
        .containsExactly("0:v0", "1:v1", "2:v2", "3:v3", "4:v4", "5:v5", "6:v6", "7:v7", "8:v8");
    JsonNode stats = new ObjectMapper().readTree(out.statsJson());
    List<String> keys = new ArrayList<>();
    stats.get("minValues").fieldNames().forEachRemaining(keys::add);
    assertThat(keys).containsExactlyInAnyOrder(id.physicalName(), a.physicalName());
    assertThat(stats.get("maxValues").get(id.physicalName()).asLong()).isEqualTo(8);
    String log =
        Files.readString(
            location.localPath().resolve("_delta_log/%020d.json".formatted(after.version())));
    assertThat(log)
        .contains("\"partitionValues\":{\"" + partitionKey + "\":\"x\"}")
        .doesNotContain("\"partitionValues\":{\"p\"");
  }

  /**
   * Id mode: one file names its fields anything (as converted or foreign writers may), another
   * carries the physical names swapped against the ids; both are read by id.
   */
  @Test
  void idMode_matchesFieldsById_whateverTheFilesCallThem() throws Exception {
    TableLocation location = create("id");
    TableSnapshot empty = tables.loadLatest(location);
    Column id = column(empty, "id");
    Column a = column(empty, "a");
    typed.appendWithCopyOptions(
        location,
        "p",
        "x",
        "SELECT range AS x1, 'v' || range AS x2 FROM range(0, 3)",
        "f0",
        "FIELD_IDS {x1: " + id.fieldId().getAsInt() + ", x2: " + a.fieldId().getAsInt() + "}");
    typed.appendWithCopyOptions(
        location,
        "p",
        "x",
        "SELECT 'v' || range AS "
            + q(id.physicalName())
            + ", range AS "
            + q(a.physicalName())
            + " FROM range(3, 6)",
        "f1",
        "FIELD_IDS {"
            + q(id.physicalName())
            + ": "
            + a.fieldId().getAsInt()
            + ", "
            + q(a.physicalName())
            + ": "
            + id.fieldId().getAsInt()
            + "}");
    TableSnapshot before = tables.loadLatest(location);

    CompactionResult result =
        executor(DuckDbRewriter::new).execute(CompactionPlanner.plan(before, options()), before);

    assertThat(result.partitions())
        .singleElement()
        .satisfies(
            p -> assertThat(p.status()).as(p.detail()).isEqualTo(PartitionResult.Status.COMMITTED));
    DataFile out = tables.loadLatest(location).activeFiles().get(0);
    assertThat(fields(out))
        .containsExactly(
            id.physicalName() + "#" + id.fieldId().getAsInt(),
            a.physicalName() + "#" + a.fieldId().getAsInt());
    assertThat(rows(out, id, a)).containsExactly("0:v0", "1:v1", "2:v2", "3:v3", "4:v4", "5:v5");
  }

  /**
   * Mutation: a writer that ignores the mapping (reads and writes the schema's names) must be
   * refused before anything is uploaded or committed.
   */
  @Test
  void writerUsingLogicalNames_isRefused_andNothingIsCommitted() throws Exception {
    TableLocation location = create("name");
    TableSnapshot empty = tables.loadLatest(location);
    Column id = column(empty, "id");
    Column a = column(empty, "a");
    for (int i = 0; i < 2; i++) {
      typed.appendWithCopyOptions(
          location,
          "p",
          "x",
          "SELECT range AS "
              + q(id.physicalName())
              + ", 'v' || range AS "
              + q(a.physicalName())
              + " FROM range("
              + (i * 3)
              + ", "
              + (i * 3 + 3)
              + ")",
          "f" + i,
          "FIELD_IDS {"
              + q(id.physicalName())
              + ": "
              + id.fieldId().getAsInt()
              + ", "
              + q(a.physicalName())
              + ": "
              + a.fieldId().getAsInt()
              + "}");
    }
    TableSnapshot before = tables.loadLatest(location);
    BinRewriter.Factory logicalNames =
        (settings, scratch) -> {
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
              TableSchema unmapped =
                  new TableSchema(
                      schema.columns().stream()
                          .map(
                              c ->
                                  new Column(
                                      c.name(),
                                      c.type(),
                                      c.nullable(),
                                      c.fields(),
                                      c.name(),
                                      OptionalInt.empty()))
                          .toList(),
                      schema.partitionColumns());
              return real.rewrite(
                  table, unmapped, Map.of(), inputs, deleted, outDir, target, compression, orderBy);
            }

            @Override
            public void close() throws java.sql.SQLException {
              real.close();
            }
          };
        };

    CompactionResult result =
        executor(logicalNames).execute(CompactionPlanner.plan(before, options()), before);

    assertThat(result.partitions())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.status()).isEqualTo(PartitionResult.Status.VERIFICATION_FAILED);
              assertThat(p.detail())
                  .contains("does not name its columns as the table's column mapping says")
                  .contains("where column id has physical name " + id.physicalName())
                  .endsWith("nothing was committed");
            });
    TableSnapshot after = tables.loadLatest(location);
    assertThat(after.version()).isEqualTo(before.version());
    assertThat(after.activeFiles()).hasSize(2);
  }

  /** Each top-level field of the file as {@code name#fieldId}. */
  private static List<String> fields(DataFile file) throws Exception {
    List<String> fields = new ArrayList<>();
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT name, field_id FROM parquet_schema('"
                    + LocalStorage.toPath(file.path())
                    + "') WHERE name <> 'duckdb_schema' ORDER BY column_id")) {
      while (rs.next()) {
        fields.add(rs.getString(1) + "#" + rs.getString(2));
      }
    }
    return fields;
  }

  /** Rows of the file as {@code id:a}, by physical names, ordered by id. */
  private static List<String> rows(DataFile file, Column id, Column a) throws Exception {
    List<String> rows = new ArrayList<>();
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT "
                    + q(id.physicalName())
                    + " || ':' || "
                    + q(a.physicalName())
                    + " FROM read_parquet('"
                    + LocalStorage.toPath(file.path())
                    + "') ORDER BY "
                    + q(id.physicalName()))) {
      while (rs.next()) {
        rows.add(rs.getString(1));
      }
    }
    return rows;
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
