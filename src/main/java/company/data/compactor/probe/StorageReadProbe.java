package company.data.compactor.probe;

import company.data.compactor.duckdb.DuckDbConnections;
import company.data.compactor.error.Errors;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.PartitionValues;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.Scratch;
import company.data.compactor.storage.Storage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Times a reader of this storage: for each run, every active file of the sampled partitions is
 * fetched through the storage port (one request per file, every byte: the per-file request cost is
 * what fragmentation adds) into a fresh temporary directory, then DuckDB answers the query over
 * them as the view {@code t}. The median of the runs is reported. DuckDB here has no S3 or Delta
 * reader, so this replaces the blueprint's {@code delta_scan}; on local disk the fetch is a copy.
 */
public final class StorageReadProbe implements LatencyProbe {

  private final Storage storage;
  private final ProbeSettings settings;
  private final Path tempRoot;

  /**
   * @param tempRoot where each run's copies are written (and deleted after the run)
   */
  public StorageReadProbe(Storage storage, ProbeSettings settings, Path tempRoot) {
    this.storage = storage;
    this.settings = settings;
    this.tempRoot = tempRoot;
  }

  @Override
  public int samplePartitions() {
    return settings.maxPartitions();
  }

  @Override
  public String method() {
    return String.format(
        Locale.ROOT,
        "each run fetches every active file of the %d most fragmented partitions through the table's"
            + " storage (one request per file, all bytes) and runs \"%s\" on them with DuckDB;"
            + " median of %d runs",
        settings.maxPartitions(),
        settings.query(),
        settings.runs());
  }

  @Override
  public ProbeResult measure(TableSnapshot snapshot, List<PartitionValues> partitions) {
    List<DataFile> files =
        snapshot.activeFiles().stream().filter(f -> partitions.contains(f.partition())).toList();
    long bytes = files.stream().mapToLong(DataFile::sizeBytes).sum();
    List<Double> runs = new ArrayList<>();
    String result = "";
    try {
      warmUp();
      for (int run = 0; run < settings.runs(); run++) {
        Path dir = Files.createDirectories(tempRoot.resolve("probe-" + UUID.randomUUID()));
        try {
          long started = System.nanoTime();
          result = fetchAndQuery(files, dir);
          runs.add((System.nanoTime() - started) / 1e6);
        } finally {
          Scratch.deleteTree(dir);
        }
      }
    } catch (IOException | SQLException e) {
      throw Errors.operationFailed(
          "probing read latency of " + snapshot.location() + " at version " + snapshot.version(),
          e);
    }
    List<Double> sorted = runs.stream().sorted().toList();
    double median =
        sorted.size() % 2 == 1
            ? sorted.get(sorted.size() / 2)
            : (sorted.get(sorted.size() / 2 - 1) + sorted.get(sorted.size() / 2)) / 2;
    return new ProbeResult(
        round(median),
        runs.stream().map(StorageReadProbe::round).toList(),
        files.size(),
        bytes,
        partitions.stream().map(PartitionValues::label).toList(),
        result);
  }

  /** Loads DuckDB's native library once, so the first timed run does not pay for it. */
  private static void warmUp() throws SQLException {
    try (Connection c = DuckDbConnections.inMemory();
        Statement s = c.createStatement()) {
      s.execute("SELECT 1");
    }
  }

  private String fetchAndQuery(List<DataFile> files, Path dir) throws IOException, SQLException {
    if (files.isEmpty()) {
      return "";
    }
    List<Path> local = new ArrayList<>();
    for (int i = 0; i < files.size(); i++) {
      Path copy = dir.resolve("f" + i + ".parquet");
      try (InputStream in = storage.openFrom(files.get(i).path(), 0)) {
        Files.copy(in, copy);
      }
      local.add(copy);
    }
    String list =
        local.stream()
            .map(p -> "'" + p.toString().replace("'", "''") + "'")
            .collect(Collectors.joining(", ", "[", "]"));
    try (Connection c = DuckDbConnections.inMemory();
        Statement s = c.createStatement()) {
      s.execute("SET home_directory = '" + dir.toString().replace("'", "''") + "'");
      s.execute(
          "CREATE VIEW t AS SELECT * FROM read_parquet("
              + list
              + ", hive_partitioning = false, union_by_name = true)");
      try (ResultSet rs = s.executeQuery(settings.query())) {
        if (!rs.next()) {
          return "";
        }
        List<String> values = new ArrayList<>();
        for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
          values.add(String.valueOf(rs.getObject(i)));
        }
        return String.join(",", values);
      }
    }
  }

  private static double round(double ms) {
    return Math.round(ms * 10) / 10.0;
  }
}
