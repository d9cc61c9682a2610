package company.data.compactor.delta.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.testing.LocalCompactions;
import io.delta.kernel.TableManager;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.expressions.Column;
import io.delta.kernel.expressions.Literal;
import io.delta.kernel.expressions.Predicate;
import io.delta.kernel.types.DoubleType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Delta reader (kernel) with a filter on the compacted table still finds the file holding the
 * matching row: the stats the rewrite wrote must not let it skip that file.
 */
class KernelSkippingIT {

  private static final String MAXCP = new String(Character.toChars(0x10FFFF));

  @TempDir Path dir;

  private TableLocation compacted() throws Exception {
    LocalStorage storage = new LocalStorage();
    TableLocation location = TableLocation.parse("t", dir);
    TypedTables typed = new TypedTables();
    typed.create(
        location,
        new StructType()
            .add("s", StringType.STRING)
            .add("d", DoubleType.DOUBLE)
            .add("p", StringType.STRING),
        "p");
    // Row order within the file: 0.0 before -0.0.
    typed.append(
        location,
        "p",
        "a",
        "SELECT * FROM (VALUES (repeat('a', 31) || chr(1114111) || chr(1114111) || 'b', 0.0::DOUBLE),"
            + " ('a', -0.0::DOUBLE)) v(s, d)",
        "in-0");
    typed.append(location, "p", "a", "SELECT '' AS s, 1.0::DOUBLE AS d", "in-1");
    KernelDeltaTables tables = new KernelDeltaTables(storage);
    TableSnapshot before = tables.loadLatest(location);
    LocalCompactions.execute(
        storage, dir.resolve("scratch"), before, LocalCompactions.binPack(1 << 20, 2, 128 << 20));
    assertThat(tables.loadLatest(location).version()).isGreaterThan(before.version());
    return location;
  }

  private static long filesScanned(TableLocation location, Predicate filter) throws Exception {
    Engine engine = KernelEngines.over(new LocalStorage());
    long files = 0;
    try (CloseableIterator<FilteredColumnarBatch> batches =
        TableManager.loadSnapshot(location.uri())
            .build(engine)
            .getScanBuilder()
            .withFilter(filter)
            .build()
            .getScanFiles(engine)) {
      while (batches.hasNext()) {
        try (var rows = batches.next().getRows()) {
          while (rows.hasNext()) {
            rows.next();
            files++;
          }
        }
      }
    }
    return files;
  }

  private static List<String> addStats(TableLocation location) throws Exception {
    try (var files = java.nio.file.Files.list(location.localPath().resolve("_delta_log"))) {
      return files
          .filter(f -> f.toString().endsWith(".json"))
          .flatMap(
              f -> {
                try {
                  return java.nio.file.Files.readAllLines(f).stream();
                } catch (java.io.IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              })
          .filter(l -> l.contains("\"add\"") && l.contains("numRecords"))
          .toList();
    }
  }

  @Test
  void aStringEqualityFilter_onAValuePastTheCutWithMaxCodePoints_stillFindsItsFile()
      throws Exception {
    TableLocation location = compacted();
    String value = "a".repeat(31) + MAXCP + MAXCP + "b";
    assertThat(filesScanned(location, new Predicate("=", new Column("s"), Literal.ofString(value))))
        .as("files kernel reads for s = <31 a, U+10FFFF, U+10FFFF, b>; log: %s", addStats(location))
        .isEqualTo(1);
  }

  @Test
  void aDoubleFilter_matchingNegativeZero_stillFindsItsFile() throws Exception {
    TableLocation location = compacted();
    assertThat(filesScanned(location, new Predicate("<=", new Column("d"), Literal.ofDouble(-0.0))))
        .as("files kernel reads for d <= -0.0 (the file holds -0.0); log: %s", addStats(location))
        .isEqualTo(1);
  }
}
