import company.data.compactor.delta.LogHistory;
import company.data.compactor.delta.NewDataFile;
import company.data.compactor.delta.RewriteCommit;
import company.data.compactor.delta.TableWriter;
import company.data.compactor.delta.Tombstone;
import company.data.compactor.delta.kernel.KernelDeltaTables;
import company.data.compactor.delta.kernel.KernelLogReader;
import company.data.compactor.delta.kernel.KernelRewriteCommitter;
import company.data.compactor.delta.kernel.KernelTableWriter;
import company.data.compactor.demo.DemoTable;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.PartitionValues;
import company.data.compactor.model.TableLocation;
import company.data.compactor.storage.LocalStorage;
import io.delta.kernel.TableManager;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.internal.InternalScanFileUtils;
import io.delta.kernel.utils.CloseableIterator;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.duckdb.DuckDBDriver;

/**
 * The floor of the metadata commands and of start-up on this machine, for bench/RESULTS.md: the
 * least a Java program on this JVM does for what delta-compactor's rules require, with the fastest
 * log reader the JVM has here (DuckDB, in process) and none of the product's other work (no
 * kernel replay, no report, no lease, no commits, no re-check before a delete). A lower bound: a
 * figure the product cannot beat, not a design to ship. Run by hand on the CLI's class path with
 * the serial collector and no start-up cache (bench/RESULTS.md, "Floors of the metadata commands
 * in Java", gives the commands); bench/run starts only its {@code demo} mode (its startup
 * section, beside the demo command, with a start-up cache of its own).
 *
 * <pre>
 *   Floor jvm                      the JVM starts and exits (this class path, nothing else)
 *   Floor inspect TABLE            the active files' paths and sizes read from the last checkpoint
 *                                  and the JSON tail by DuckDB, grouped per partition directory,
 *                                  and the symbolic-link rule: one lstat per active file and each
 *                                  directory's real path once
 *   Floor vacuum TABLE HOURS       every commit's adds and removes read by DuckDB (vacuum trusts no
 *                                  checkpoint for tombstones), the table listed with one lstat per
 *                                  entry (the link rule from the listing's own attributes), and the
 *                                  tombstoned, listed, inactive files older than HOURS deleted, 8
 *                                  in flight
 *   Floor vacuum-safe TABLE HOURS  the same plan, then what delta-compactor's rules add around the
 *                                  deletes: a VACUUM START and a VACUUM END commit (written as
 *                                  new files, no kernel), and the link re-check just before each
 *                                  batch of 1,000 deletes (an lstat per file, each directory's real
 *                                  path once per batch), 16 batches in flight as the product runs
 *                                  them; still no kernel, no lease and no report
 *   Floor vacuum-plan TABLE HOURS one|two
 *                                  the plan of vacuum-safe, no deletes and no commits: "one" reads
 *                                  the log once (DuckDB, as vacuum); "two" also reads it with
 *                                  delta-compactor's own tombstone history (KernelLogReader, over
 *                                  LocalStorage) and dooms a file only when both readers agree, as
 *                                  the product requires two independent reads (kernel's snapshot and
 *                                  that history) to agree; still no kernel, so a lower bound for any
 *                                  design with two readers
 *   Floor firstuse TABLE           start-up and first use of the libraries a run needs: kernel
 *                                  loads TABLE's snapshot and lists its files, DuckDB counts their
 *                                  rows
 *   Floor demo DIR                 the part of README's demo that no design of it skips, in DIR
 *                                  (empty): the 30 appends committed through kernel (the product's
 *                                  own writer: kernel's transactions, data files by DuckDB), kernel
 *                                  loading the table, one DuckDB read of its 30 files (the reader's
 *                                  latency before), one DuckDB rewrite per partition, one read of
 *                                  the 3 new files (after: with the read before, the row count and
 *                                  sum compared), and one kernel commit of the rewrite (the
 *                                  product's committer). DuckDB loads on a second thread from the
 *                                  start. No command line parsing, lease, probe repeats, fresh
 *                                  reader per probe pass, column-by-column verification, commit per
 *                                  partition, vacuum plan, log cleanup, report or page: a lower
 *                                  bound of README's demo command, not a design to ship
 * </pre>
 *
 * Prints one JSON line on stdout: the result and each step's end in milliseconds from the start of
 * {@code main} (the JVM's own start is the caller's wall time less {@code done}).
 */
public final class Floor {

  private static final long START_NANOS = System.nanoTime();

  private static final Map<String, Long> STEPS = new java.util.LinkedHashMap<>();

  private Floor() {}

  public static void main(String[] args) throws Exception {
    String result =
        switch (args[0]) {
          case "jvm" -> "{}";
          case "inspect" -> inspect(Path.of(args[1]));
          case "vacuum" -> vacuum(Path.of(args[1]), Long.parseLong(args[2]), false);
          case "vacuum-safe" -> vacuum(Path.of(args[1]), Long.parseLong(args[2]), true);
          case "vacuum-plan" ->
              vacuumPlan(Path.of(args[1]), Long.parseLong(args[2]), args[3].equals("two"));
          case "firstuse" -> firstUse(Path.of(args[1]));
          case "demo" -> demo(Path.of(args[1]));
          default -> throw new IllegalArgumentException("unknown mode " + args[0]);
        };
    step("done");
    String steps =
        STEPS.entrySet().stream()
            .map(e -> "\"" + e.getKey() + "\": " + e.getValue())
            .collect(Collectors.joining(", "));
    System.out.println("{\"result\": " + result + ", \"ms_from_main\": {" + steps + "}}");
  }

  private static void step(String name) {
    STEPS.put(name, (System.nanoTime() - START_NANOS) / 1_000_000);
  }

  private static Connection duckdb() throws Exception {
    Connection c = new DuckDBDriver().connect("jdbc:duckdb:", new java.util.Properties());
    try (Statement s = c.createStatement()) {
      s.execute("SET threads = 2");
    }
    step("duckdb_loaded");
    return c;
  }

  private static String inspect(Path table) throws Exception {
    Path log = table.resolve("_delta_log");
    String hint = Files.readString(log.resolve("_last_checkpoint"));
    Matcher m = Pattern.compile("\"version\"\\s*:\\s*(\\d+)").matcher(hint);
    if (!m.find()) {
      throw new IllegalStateException("no version in _last_checkpoint: " + hint);
    }
    long checkpoint = Long.parseLong(m.group(1));
    List<String> tail = commitsAfter(log, checkpoint);
    Map<String, Long> sizes = new HashMap<>();
    try (Connection c = duckdb();
        Statement s = c.createStatement()) {
      String cp = log.resolve(String.format("%020d.checkpoint.parquet", checkpoint)).toString();
      String sql =
          "SELECT add.path, add.size FROM read_parquet('" + cp + "') WHERE add IS NOT NULL";
      if (!tail.isEmpty()) {
        sql +=
            " UNION ALL SELECT add.path, add.size FROM read_json("
                + list(tail)
                + ", format = 'newline_delimited', columns = {add: 'STRUCT(path VARCHAR, size"
                + " BIGINT)'}) WHERE add IS NOT NULL";
      }
      try (ResultSet rs = s.executeQuery(sql)) {
        while (rs.next()) {
          sizes.put(rs.getString(1), rs.getLong(2));
        }
      }
    }
    step("log_read");
    Map<Path, Integer> perDirectory = new HashMap<>();
    Map<Path, Path> realDirectories = new HashMap<>();
    Path realRoot = table.toRealPath();
    int outside = 0;
    for (String logged : sizes.keySet()) {
      Path file = table.resolve(decode(logged));
      Path dir = file.getParent();
      perDirectory.merge(dir, 1, Integer::sum);
      if (!realPath(file, realDirectories).startsWith(realRoot)) {
        outside++;
      }
    }
    step("link_rule");
    return "{\"files\": "
        + sizes.size()
        + ", \"partitions\": "
        + perDirectory.size()
        + ", \"bytes\": "
        + sizes.values().stream().mapToLong(Long::longValue).sum()
        + ", \"outside\": "
        + outside
        + "}";
  }

  private static String vacuum(Path table, long hours, boolean safe) throws Exception {
    Path log = table.resolve("_delta_log");
    LogRead read = readLog(log);
    List<String> commits = read.commits();
    Map<String, Long> tombstones = read.tombstones();
    Set<String> active = read.active();
    Map<String, BasicFileAttributes> listed = listTable(table);
    step("listed");
    int links = 0;
    for (BasicFileAttributes attrs : listed.values()) {
      if (attrs.isSymbolicLink()) {
        links++;
      }
    }
    step("link_rule");
    long cutoff = System.currentTimeMillis() - hours * 3_600_000L;
    List<Path> doomed = new ArrayList<>();
    for (Map.Entry<String, Long> t : tombstones.entrySet()) {
      String relative = decode(t.getKey());
      if (t.getValue() < cutoff && !active.contains(t.getKey()) && listed.containsKey(relative)) {
        doomed.add(table.resolve(relative));
      }
    }
    java.util.Collections.sort(doomed);
    if (safe) {
      String last = Path.of(commits.get(commits.size() - 1)).getFileName().toString();
      long version = Long.parseLong(last.substring(0, 20));
      commitInfo(log, version + 1, "VACUUM START", doomed.size());
      step("vacuum_start");
      int deleted = deleteInParallel(doomed, 16, 1000, table.toRealPath());
      step("deleted");
      commitInfo(log, version + 2, "VACUUM END", deleted);
      step("vacuum_end");
      return "{\"deleted\": " + deleted + ", \"active\": " + active.size() + "}";
    }
    deleteInParallel(doomed, 8, Math.max(1, (doomed.size() + 7) / 8), null);
    step("deleted");
    return "{\"deleted\": "
        + doomed.size()
        + ", \"active\": "
        + active.size()
        + ", \"listed\": "
        + listed.size()
        + ", \"links\": "
        + links
        + "}";
  }

  /**
   * The plan of {@link #vacuum} only (the doomed files), with a second, independent reader of the
   * log when {@code twoReaders}: delta-compactor's tombstone history, whose tombstone must be as old
   * and whose path must not have been added again.
   */
  private static String vacuumPlan(Path table, long hours, boolean twoReaders) throws Exception {
    LogRead read = readLog(table.resolve("_delta_log"));
    Map<String, Long> tombstones = read.tombstones();
    Set<String> active = read.active();
    LogHistory history = null;
    Map<String, Long> second = new HashMap<>();
    String root = null;
    if (twoReaders) {
      TableLocation location = TableLocation.parse(table.toString(), Path.of("."));
      history = new KernelLogReader(new LocalStorage()).read(location);
      for (Tombstone t : history.tombstones()) {
        second.put(t.path(), t.removedAtMillis());
      }
      root = location.uri() + "/";
      step("second_log_read");
    }
    Set<String> listed = new HashSet<>();
    listTable(table).forEach(
        (path, attrs) -> {
          if (!attrs.isSymbolicLink()) {
            listed.add(path);
          }
        });
    step("listed");
    long cutoff = System.currentTimeMillis() - hours * 3_600_000L;
    int doomed = 0;
    int disagreed = 0;
    for (Map.Entry<String, Long> t : tombstones.entrySet()) {
      String relative = decode(t.getKey());
      if (t.getValue() >= cutoff || active.contains(t.getKey()) || !listed.contains(relative)) {
        continue;
      }
      if (twoReaders) {
        Long removed = second.get(root + relative);
        if (removed == null
            || removed >= cutoff
            || history.readdedPaths().contains(root + relative)) {
          disagreed++;
          continue;
        }
      }
      doomed++;
    }
    step("planned");
    return "{\"doomed\": " + doomed + ", \"disagreed\": " + disagreed + "}";
  }

  /** Every file under {@code table} but the log, by its relative path, with its attributes. */
  private static Map<String, BasicFileAttributes> listTable(Path table) throws IOException {
    Map<String, BasicFileAttributes> listed = new HashMap<>();
    Files.walkFileTree(
        table,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
            return dir.getFileName().toString().equals("_delta_log")
                ? FileVisitResult.SKIP_SUBTREE
                : FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
            listed.put(table.relativize(file).toString(), attrs);
            return FileVisitResult.CONTINUE;
          }
        });
    return listed;
  }

  /** Every commit of a log, and per path its latest removal time or whether it is active. */
  private record LogRead(List<String> commits, Map<String, Long> tombstones, Set<String> active) {}

  /**
   * Every commit's adds and removes read by DuckDB: per path, its last action in log order decides
   * whether it is active. Steps {@code log_read}.
   */
  private static LogRead readLog(Path log) throws Exception {
    List<String> commits = commitsAfter(log, -1);
    Map<String, Long> tombstones = new HashMap<>();
    Set<String> active = new HashSet<>();
    try (Connection c = duckdb();
        Statement s = c.createStatement()) {
      String sql =
          "SELECT coalesce(add.path, remove.path), add IS NOT NULL, remove.deletionTimestamp FROM"
              + " read_json("
              + list(commits)
              + ", format = 'newline_delimited', filename = true, columns = {add: 'STRUCT(path"
              + " VARCHAR)', remove: 'STRUCT(path VARCHAR, deletionTimestamp BIGINT)'}) WHERE add"
              + " IS NOT NULL OR remove IS NOT NULL ORDER BY filename";
      try (ResultSet rs = s.executeQuery(sql)) {
        while (rs.next()) {
          String path = rs.getString(1);
          if (rs.getBoolean(2)) {
            active.add(path);
            tombstones.remove(path);
          } else {
            active.remove(path);
            tombstones.merge(path, rs.getLong(3), Math::max);
          }
        }
      }
    }
    step("log_read");
    return new LogRead(commits, tombstones, active);
  }

  private static String demo(Path dir) throws Exception {
    // The log manager starts here, on this thread, before DuckDB's thread: started from two threads
    // at once it can deadlock. Libraries log at WARNING, as on the command line (kernel's metrics
    // reports are then skipped).
    java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.WARNING);
    // DuckDB's native library loads beside kernel's first use, as the product starts it.
    CompletableFuture<Connection> db =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return new DuckDBDriver().connect("jdbc:duckdb:", new java.util.Properties());
              } catch (java.sql.SQLException e) {
                throw new IllegalStateException(e);
              }
            });
    var storage = new LocalStorage();
    var location = TableLocation.parse("demo_delta_table", dir);
    Path scratch = Files.createDirectories(dir.resolve("scratch"));
    var writer = KernelTableWriter.withDuckDbDataFiles(storage, scratch);
    writer.create(location, DemoTable.SCHEMA, DemoTable.properties());
    List<TableWriter.Append> appends = new ArrayList<>();
    for (int i = 0; i < DemoTable.APPENDS; i++) {
      appends.add(new TableWriter.Append(DemoTable.partitionOf(i), DemoTable.rowsOf(i)));
    }
    writer.appendAll(location, appends);
    step("seeded");
    var snapshot = new KernelDeltaTables(storage).loadLatest(location);
    Map<PartitionValues, List<DataFile>> perPartition = new java.util.LinkedHashMap<>();
    for (var file : snapshot.activeFiles()) {
      perPartition.computeIfAbsent(file.partition(), k -> new ArrayList<>()).add(file);
    }
    step("loaded");
    List<String> all = new ArrayList<>();
    snapshot.activeFiles().forEach(f -> all.add(local(f.path())));
    String before;
    String after;
    List<String> written = new ArrayList<>();
    List<NewDataFile> added = new ArrayList<>();
    try (Connection c = db.join();
        Statement s = c.createStatement()) {
      step("duckdb_ready");
      before = sumOf(s, all);
      step("read_before");
      int n = 0;
      for (var partition : perPartition.entrySet()) {
        var first = partition.getValue().get(0);
        String relative =
            first.logPath().substring(0, first.logPath().lastIndexOf('/') + 1)
                + "floor-"
                + n++
                + ".parquet";
        String out = location.child(relative);
        s.execute(
            "COPY (SELECT * EXCLUDE (event_date) FROM read_parquet("
                + list(partition.getValue().stream().map(f -> local(f.path())).toList())
                + ")) TO '"
                + local(out)
                + "' (FORMAT parquet, COMPRESSION zstd)");
        written.add(local(out));
        added.add(
            new NewDataFile(
                out,
                relative,
                Files.size(Path.of(local(out))),
                partition.getKey(),
                "{\"numRecords\":" + partition.getValue().size() * DemoTable.ROWS_PER_APPEND + "}",
                System.currentTimeMillis(),
                Map.of()));
      }
      step("rewritten");
      after = sumOf(s, written);
      step("read_after");
    }
    if (!before.equals(after)) {
      throw new IllegalStateException("rewrite changed the rows: " + before + " -> " + after);
    }
    var outcome =
        new KernelRewriteCommitter(storage, java.time.Clock.systemUTC())
            .commitRewrite(
                new RewriteCommit(
                    location,
                    snapshot.version(),
                    snapshot.activeFiles(),
                    added,
                    "OPTIMIZE",
                    Map.of(),
                    Map.of()));
    step("committed");
    return "{\"files\": "
        + all.size()
        + ", \"before\": \""
        + before
        + "\", \"after\": \""
        + after
        + "\", \"commit\": \""
        + outcome
        + "\"}";
  }

  private static String local(String uri) {
    return Path.of(java.net.URI.create(uri)).toString();
  }

  private static String sumOf(Statement s, List<String> files) throws java.sql.SQLException {
    try (ResultSet rs =
        s.executeQuery("SELECT count(*), sum(amount) FROM read_parquet(" + list(files) + ")")) {
      rs.next();
      return rs.getLong(1) + " rows, sum " + rs.getDouble(2);
    }
  }

  private static String firstUse(Path table) throws Exception {
    Engine engine = DefaultEngine.create(new Configuration());
    var snapshot = TableManager.loadSnapshot(table.toUri().toString()).build(engine);
    List<String> files = new ArrayList<>();
    try (CloseableIterator<FilteredColumnarBatch> batches =
        snapshot.getScanBuilder().build().getScanFiles(engine)) {
      while (batches.hasNext()) {
        try (CloseableIterator<Row> rows = batches.next().getRows()) {
          while (rows.hasNext()) {
            files.add(InternalScanFileUtils.getAddFileStatus(rows.next()).getPath());
          }
        }
      }
    }
    step("kernel_snapshot_and_scan");
    long rows;
    try (Connection c = duckdb();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT count(*) FROM read_parquet("
                    + list(files.stream().map(f -> f.replaceFirst("^file:", "")).toList())
                    + ")")) {
      rs.next();
      rows = rs.getLong(1);
    }
    step("duckdb_query");
    return "{\"files\": " + files.size() + ", \"rows\": " + rows + "}";
  }

  /** A commit of one commitInfo action, written as a new file (it must not exist). */
  private static void commitInfo(Path log, long version, String operation, int files)
      throws IOException {
    String json =
        "{\"commitInfo\":{\"timestamp\":"
            + System.currentTimeMillis()
            + ",\"operation\":\""
            + operation
            + "\",\"operationParameters\":{},\"operationMetrics\":{\"files\":\""
            + files
            + "\"},\"engineInfo\":\"floor\"}}\n";
    Files.writeString(
        log.resolve(String.format("%020d.json", version)),
        json,
        java.nio.file.StandardOpenOption.CREATE_NEW,
        java.nio.file.StandardOpenOption.WRITE);
  }

  /**
   * Deletes {@code doomed} in batches of {@code batch}, {@code threads} in flight. With a {@code
   * realRoot}, the link re-check before each batch: a file that is now a link, or whose
   * directory's real path left the root, is skipped, and a file already gone counts as deleted;
   * without one, every file must still be there. Returns the files deleted.
   */
  private static int deleteInParallel(List<Path> doomed, int threads, int batch, Path realRoot)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<Integer>> done = new ArrayList<>();
    for (int i = 0; i < doomed.size(); i += batch) {
      List<Path> part = doomed.subList(i, Math.min(doomed.size(), i + batch));
      done.add(
          pool.submit(
              () -> {
                Map<Path, Path> realDirectories = new HashMap<>();
                int count = 0;
                for (Path p : part) {
                  if (realRoot == null) {
                    Files.delete(p);
                    count++;
                  } else if (realPath(p, realDirectories).startsWith(realRoot)) {
                    Files.deleteIfExists(p);
                    count++;
                  }
                }
                return count;
              }));
    }
    int deleted = 0;
    for (Future<Integer> f : done) {
      deleted += f.get();
    }
    pool.shutdown();
    return deleted;
  }

  /**
   * The link rule for one file: its own target when it is a link (one lstat), else its name under
   * its directory's real path, resolved once per directory into {@code realDirectories}.
   */
  private static Path realPath(Path file, Map<Path, Path> realDirectories) throws IOException {
    if (Files.isSymbolicLink(file)) {
      return file.toRealPath();
    }
    Path dir = realDirectories.get(file.getParent());
    if (dir == null) {
      dir = file.getParent().toRealPath();
      realDirectories.put(file.getParent(), dir);
    }
    return dir.resolve(file.getFileName());
  }

  private static List<String> commitsAfter(Path log, long version) throws IOException {
    Pattern commit = Pattern.compile("(\\d{20})\\.json");
    try (Stream<Path> entries = Files.list(log)) {
      return entries
          .map(p -> p.getFileName().toString())
          .filter(n -> commit.matcher(n).matches())
          .filter(n -> Long.parseLong(n.substring(0, 20)) > version)
          .sorted()
          .map(n -> log.resolve(n).toString())
          .toList();
    }
  }

  private static String list(List<String> paths) {
    return paths.stream()
        .map(p -> "'" + p.replace("'", "''") + "'")
        .collect(Collectors.joining(", ", "[", "]"));
  }

  private static String decode(String logged) {
    // A logged path is URI-encoded: a '+' is itself, not a space as in a form.
    return logged.indexOf('%') < 0
        ? logged
        : URLDecoder.decode(logged.replace("+", "%2B"), StandardCharsets.UTF_8);
  }
}
