package company.data.compactor.delta.kernel;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.delta.TableWriter.Append;
import company.data.compactor.model.Column;
import company.data.compactor.model.PartitionValues;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSchema;
import company.data.compactor.storage.Storage;
import io.delta.kernel.Operation;
import io.delta.kernel.TableManager;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.utils.CloseableIterable;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The table and appends the tests of {@link KernelTableWriter}'s files written ahead share, and
 * what they read back: the log's adds and the data files on disk.
 */
final class AheadTables {

  /** The name of the thread that writes data files ahead. */
  static final String AHEAD = "data-files-ahead";

  static final int APPENDS = 8;

  static final TableSchema SCHEMA =
      new TableSchema(
          List.of(
              new Column("a", "string", true),
              new Column("b", "long", true),
              new Column("p", "string", true)),
          List.of("p"));

  private static final ObjectMapper JSON = new ObjectMapper();

  private AheadTables() {}

  /** {@value #APPENDS} appends of two rows, round robin over three partitions. */
  static List<Append> appends() {
    List<Append> appends = new ArrayList<>();
    for (int i = 0; i < APPENDS; i++) {
      String partition = "p" + (i % 3);
      appends.add(
          new Append(
              new PartitionValues(Map.of("p", partition)),
              List.of(
                  List.of("x" + i, (long) i, partition), List.of("y" + i, (long) -i, partition))));
    }
    return appends;
  }

  /** The end of the path of commit {@code version}'s log file, for storage that watches it. */
  static String commitFile(long version) {
    return "/_delta_log/%020d.json".formatted(version);
  }

  /**
   * Another writer's commit through {@code storage}: sets {@code delta.dataSkippingNumIndexedCols}
   * to 1, so files written after it have stats of the first column only.
   */
  static void limitStatsToFirstColumn(TableLocation location, Storage storage) {
    Engine other = KernelEngines.over(storage);
    TableManager.loadSnapshot(location.uri())
        .build(other)
        .buildUpdateTableTransaction("another-writer", Operation.MANUAL_UPDATE)
        .withTablePropertiesAdded(Map.of("delta.dataSkippingNumIndexedCols", "1"))
        .build(other)
        .commit(other, CloseableIterable.emptyIterable());
  }

  static boolean onAheadThread() {
    return Thread.currentThread().getName().equals(AHEAD);
  }

  static Path table(TableLocation location) {
    return Path.of(java.net.URI.create(location.uri()));
  }

  static Path logFile(TableLocation location, long version) {
    return table(location).resolve("_delta_log").resolve("%020d.json".formatted(version));
  }

  /** The add actions of commit {@code version}. */
  static List<JsonNode> adds(TableLocation location, long version) throws IOException {
    List<JsonNode> adds = new ArrayList<>();
    for (String line : Files.readAllLines(logFile(location, version))) {
      JsonNode action = JSON.readTree(line);
      if (action.has("add")) {
        adds.add(action.get("add"));
      }
    }
    return adds;
  }

  static JsonNode stats(JsonNode add) throws IOException {
    return JSON.readTree(add.get("stats").asText());
  }

  /** Every Parquet file under the table, relative to its root. */
  static Set<String> parquetFiles(TableLocation location) throws IOException {
    Path root = table(location);
    try (Stream<Path> files = Files.walk(root)) {
      Set<String> found = new TreeSet<>();
      files
          .filter(p -> p.toString().endsWith(".parquet"))
          .forEach(p -> found.add(root.relativize(p).toString()));
      return found;
    }
  }

  /** The (decoded) paths the adds name, relative to the table's root. */
  static Set<String> paths(List<JsonNode> adds) {
    Set<String> paths = new TreeSet<>();
    adds.forEach(add -> paths.add(decode(add.get("path").asText())));
    return paths;
  }

  static String decode(String path) {
    return URLDecoder.decode(path, StandardCharsets.UTF_8);
  }
}
