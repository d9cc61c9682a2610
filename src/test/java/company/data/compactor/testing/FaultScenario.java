package company.data.compactor.testing;

import company.data.compactor.cli.Main;
import company.data.compactor.delta.kernel.KernelDeltaTables;
import company.data.compactor.delta.kernel.KernelTableWriter;
import company.data.compactor.demo.DemoSeeder;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.StoredObject;
import company.data.compactor.storage.s3.S3Storage;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A fresh demo table (30 files, 1,500 rows, 3 partitions, version 30) in its own bucket of the
 * shared S3Proxy (a server-side copy of one seeded per JVM), and a {@link FaultProxy} in front of
 * S3Proxy that the run under test goes through. The environment uses short timeouts and few
 * attempts so faults cost milliseconds, not the SDK's defaults.
 */
public final class FaultScenario implements AutoCloseable {

  /** Rows of the demo table. */
  public static final long ROWS = 1500;

  private final Path work;
  private final String bucket;
  private final String uri;
  private final FaultProxy s3;
  private final S3Client direct;
  private final S3Storage storage;
  private final Set<String> seeded;

  /** The demo table seeded once per JVM; each scenario starts from a copy of it. */
  private static String template;

  private FaultScenario(Path work) {
    S3ProxyServer server = S3ProxyServer.shared();
    this.work = work;
    this.bucket = server.newBucket();
    this.uri = "s3://" + bucket + "/t";
    this.direct = server.client();
    this.storage = new S3Storage(direct, work.resolve("direct-uploads"));
    copyTemplate(direct, template(work), bucket);
    this.seeded = snapshot().activeFiles().stream().map(DataFile::path).collect(Collectors.toSet());
    this.s3 = FaultProxy.in(server.endpoint());
  }

  /** Seeds the demo table once (30 appends) in a bucket of its own; returns that bucket. */
  private static synchronized String template(Path work) {
    if (template == null) {
      S3ProxyServer server = S3ProxyServer.shared();
      String bucket = server.newBucket();
      try (S3Client client = server.client()) {
        S3Storage storage = new S3Storage(client, work.resolve("template-uploads"));
        new DemoSeeder(storage, new KernelDeltaTables(storage), new KernelTableWriter(storage))
            .seed(new TableLocation("s3://" + bucket + "/t"));
      }
      template = bucket;
    }
    return template;
  }

  /** Copies every object of the template table into {@code bucket}, server-side. */
  private static void copyTemplate(S3Client client, String from, String to) {
    for (var page : client.listObjectsV2Paginator(b -> b.bucket(from).prefix("t/"))) {
      for (var object : page.contents()) {
        client.copyObject(
            b ->
                b.sourceBucket(from)
                    .sourceKey(object.key())
                    .destinationBucket(to)
                    .destinationKey(object.key()));
      }
    }
  }

  /** A fresh table and proxy under {@code work}. */
  public static FaultScenario fresh(Path work) {
    return new FaultScenario(work);
  }

  public String uri() {
    return uri;
  }

  public TableLocation location() {
    return new TableLocation(uri);
  }

  /** The proxy in front of S3. */
  public FaultProxy s3() {
    return s3;
  }

  /** Direct (fault-free) storage of the table's bucket. */
  public S3Storage storage() {
    return storage;
  }

  /**
   * The environment of a run through the proxy: two attempts per call, 50-200 ms backoff, 2 s per
   * attempt, 5 s per call.
   */
  public Map<String, String> environment() {
    Map<String, String> env = new HashMap<>(S3ProxyServer.shared().environment());
    env.put("AWS_ENDPOINT_URL_S3", s3.endpoint().toString());
    env.putAll(shortTimeouts());
    return env;
  }

  /**
   * The environment of storage calls through {@code proxy} that upload tens of megabytes: the short
   * retries of {@link #shortTimeouts()}, with attempts long enough for a large part.
   */
  public static Map<String, String> uploadEnvironment(FaultProxy proxy) {
    Map<String, String> env = new HashMap<>(S3ProxyServer.shared().environment());
    env.put("AWS_ENDPOINT_URL_S3", proxy.endpoint().toString());
    env.putAll(shortTimeouts());
    env.put("COMPACTOR_AWS_ATTEMPT_TIMEOUT_MS", "20000");
    env.put("COMPACTOR_AWS_CALL_TIMEOUT_MS", "60000");
    return env;
  }

  /**
   * Retry and timeout settings that keep a fault test to seconds. The probe's time budget is set
   * out of reach: a fault (a hanging GET cut by the attempt timeout) must show as the probe's
   * retried read, not as a measurement skipped for time (BoundedProbeIT tests the budget).
   */
  public static Map<String, String> shortTimeouts() {
    return Map.of(
        "COMPACTOR_AWS_MAX_ATTEMPTS", "3",
        "COMPACTOR_AWS_BASE_DELAY_MS", "20",
        "COMPACTOR_AWS_MAX_BACKOFF_MS", "100",
        "COMPACTOR_AWS_ATTEMPT_TIMEOUT_MS", "2000",
        "COMPACTOR_AWS_CALL_TIMEOUT_MS", "6000",
        "COMPACTOR_SLACK_TIMEOUT_MS", "1000",
        "COMPACTOR_PROBE_RUNS", "1",
        "COMPACTOR_PROBE_BUDGET_MIN_MS", "600000");
  }

  /** Exit code, stdout and stderr of one command. */
  public record Result(int code, String out, String err) {}

  /** Runs {@code compactor run} on the table (no demo seeding) with {@code env}. */
  public Result run(Map<String, String> env, String... extra) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "run",
                "--work-dir",
                work.toString(),
                "--table-uri",
                uri,
                "--demo-mode",
                "false",
                "--z-order-columns",
                "",
                "--json"));
    args.addAll(List.of(extra));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        Main.execute(
            args.toArray(String[]::new),
            new PrintWriter(out, true),
            new PrintWriter(err, true),
            env);
    return new Result(code, out.toString(), err.toString());
  }

  /** The latest snapshot, read by kernel directly. */
  public TableSnapshot snapshot() {
    return new KernelDeltaTables(storage).loadLatest(location());
  }

  /**
   * Rows and distinct event ids of the latest snapshot, read by DuckDB from downloads of the files
   * kernel lists: every row exactly once means both equal {@value #ROWS}.
   */
  public long[] rowsAndDistinctIds() {
    TableSnapshot snapshot = snapshot();
    Path dir = work.resolve("check-" + System.nanoTime());
    try {
      Files.createDirectories(dir);
      List<String> local = new ArrayList<>();
      for (DataFile file : snapshot.activeFiles()) {
        Path copy = dir.resolve(local.size() + ".parquet");
        try (InputStream in = storage.openFrom(file.path(), 0)) {
          Files.copy(in, copy);
        }
        local.add("'" + copy + "'");
      }
      try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
          Statement s = c.createStatement();
          ResultSet rs =
              s.executeQuery(
                  "SELECT count(*), count(DISTINCT event_id) FROM read_parquet(["
                      + String.join(", ", local)
                      + "], hive_partitioning=false)")) {
        rs.next();
        return new long[] {rs.getLong(1), rs.getLong(2)};
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Parquet files the run wrote that the latest snapshot does not reference (orphans). */
  public Set<String> orphans() {
    try {
      Set<String> active =
          snapshot().activeFiles().stream().map(DataFile::path).collect(Collectors.toSet());
      return storage.listRecursively(uri).stream()
          .map(StoredObject::path)
          .filter(
              p ->
                  p.endsWith(".parquet")
                      && !p.contains("/_delta_log/")
                      && !active.contains(p)
                      && !seeded.contains(p))
          .collect(Collectors.toSet());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    s3.close();
    direct.close();
  }
}
