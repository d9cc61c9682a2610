package company.data.compactor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.delta.kernel.KernelDeltaTables;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.s3.S3Storage;
import company.data.compactor.testing.S3ProxyServer;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

/** The whole pipeline on s3:// tables, against S3Proxy, with the same figures as on local disk. */
class S3PipelineIT {

  @TempDir Path work;

  private record Result(int code, String out, String err) {}

  private Result cli(Map<String, String> env, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true), env);
    return new Result(code, out.toString(), err.toString());
  }

  @Test
  void htmlReport_goesBelowTheConfiguredS3Prefix() throws Exception {
    S3ProxyServer server = S3ProxyServer.shared();
    String bucket = server.newBucket();
    Map<String, String> env = new java.util.HashMap<>(server.environment());
    env.put("COMPACTOR_REPORT_PREFIX", "s3://" + bucket + "/reports");

    Result run = cli(env, "run", "--work-dir", work.toString(), "--json");

    assertThat(run.code()).as(run.err()).isZero();
    JsonNode report = new ObjectMapper().readTree(run.out());
    String uri = report.get("html_report_uri").asText();
    assertThat(uri)
        .startsWith("s3://" + bucket + "/reports/file_")
        .endsWith(report.get("execution_id").asText() + ".html");
    try (S3Client client = server.client()) {
      String page =
          client
              .getObjectAsBytes(
                  b -> b.bucket(bucket).key(uri.substring(("s3://" + bucket + "/").length())))
              .asUtf8String();
      assertThat(page).startsWith("<!DOCTYPE html>").contains("data-field=\"files\">30 → 3</p>");
    }
    assertThat(work.resolve(".delta-compactor/reports")).doesNotExist();
  }

  @Test
  void demoOnS3_seedsInspectsAndCompacts_likeOnLocalDisk() throws Exception {
    S3ProxyServer server = S3ProxyServer.shared();
    String uri = "s3://" + server.newBucket() + "/tables/demo";
    Map<String, String> env = new java.util.HashMap<>(server.environment());
    // The figures below need the probe to measure: its time budget lifted for a loaded machine.
    env.put("COMPACTOR_PROBE_BUDGET_MIN_MS", "600000");

    Result run = cli(env, "run", "--work-dir", work.toString(), "--table-uri", uri, "--json");

    assertThat(run.code()).as(run.err()).isZero();
    JsonNode report = new ObjectMapper().readTree(run.out());
    assertThat(report.get("table_uri").asText()).isEqualTo(uri);
    assertThat(report.get("table_version").asLong()).isEqualTo(30);
    assertThat(report.get("total_files").asInt()).isEqualTo(30);
    assertThat(report.get("total_rows").asLong()).isEqualTo(1500);
    assertThat(report.get("small_file_ratio_pct").asDouble()).isEqualTo(100.0);
    assertThat(report.get("partitions")).hasSize(3);
    assertThat(report.get("files_before").asInt()).isEqualTo(30);
    assertThat(report.get("files_after").asInt()).isEqualTo(3);
    assertThat(report.get("version_after").asLong()).isEqualTo(33);
    assertThat(report.get("rows_rewritten").asLong()).isEqualTo(1500);
    assertThat(report.get("latency_probe_files_pre").asInt()).isEqualTo(30);
    assertThat(report.get("latency_probe_files_post").asInt()).isEqualTo(3);
    assertThat(report.get("latency_probe_result_post").asText()).isEqualTo("1500");
    assertThat(report.get("vacuum_dry_run").asBoolean()).isTrue();
    assertThat(report.get("candidate_files_count").asInt()).isZero();
    assertThat(report.get("steps").findValuesAsText("status")).containsOnly("done");

    Result inspect =
        cli(env, "inspect", "--work-dir", work.toString(), "--table-uri", uri, "--json");
    assertThat(inspect.code()).as(inspect.err()).isZero();
    JsonNode after = new ObjectMapper().readTree(inspect.out());
    assertThat(after.get("total_files").asInt()).isEqualTo(3);
    assertThat(after.get("table_version").asLong()).isEqualTo(33);

    // An independent read: download the active files and let DuckDB count and sum them.
    try (S3Client client = server.client()) {
      S3Storage storage = new S3Storage(client, work.resolve("uploads"));
      TableSnapshot snapshot =
          new KernelDeltaTables(storage).loadLatest(TableLocation.parse(uri, work));
      List<Path> local = new ArrayList<>();
      for (DataFile file : snapshot.activeFiles()) {
        Path copy = work.resolve("check-" + local.size() + ".parquet");
        try (InputStream in = storage.openFrom(file.path(), 0)) {
          Files.copy(in, copy);
        }
        local.add(copy);
      }
      try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
          Statement s = c.createStatement();
          ResultSet rs =
              s.executeQuery(
                  "SELECT count(*), sum(amount) FROM read_parquet(["
                      + String.join(", ", local.stream().map(p -> "'" + p + "'").toList())
                      + "])")) {
        rs.next();
        assertThat(rs.getLong(1)).isEqualTo(1500);
        assertThat(rs.getDouble(2)).isEqualTo(73125.0);
      }
    }
    try (Stream<Path> leftovers = Files.walk(work.resolve(".delta-compactor"))) {
      assertThat(leftovers.filter(Files::isRegularFile).map(Path::toString))
          .as(
              "scratch and upload buffers are empty; only telemetry and the HTML report remain (the lease lives with the table)")
          .allMatch(
              p ->
                  p.endsWith("telemetry.jsonl")
                      || (p.contains("/reports/") && p.endsWith(".html")));
    }
  }

  @Test
  void tableOutsideTheAllowlist_exit2_beforeAnyRequest() {
    Map<String, String> env = new java.util.HashMap<>(S3ProxyServer.shared().environment());
    env.put("COMPACTOR_ALLOWED_TABLE_PREFIXES", "s3://lake/allowed");
    // An endpoint nobody listens on: any request would fail with a connection error, not exit 2.
    env.put("AWS_ENDPOINT_URL_S3", "http://127.0.0.1:9");

    Result result =
        cli(env, "run", "--work-dir", work.toString(), "--table-uri", "s3://lake/other/t");

    assertThat(result.code()).isEqualTo(2);
    assertThat(result.err())
        .contains(
            "table_uri=s3://lake/other/t: is not under an allowed table prefix (s3://lake/allowed)");
  }

  @Test
  void missingTableOnS3_isTableNotFound() {
    S3ProxyServer server = S3ProxyServer.shared();
    String uri = "s3://" + server.newBucket() + "/nothing";

    Result result =
        cli(server.environment(), "inspect", "--work-dir", work.toString(), "--table-uri", uri);

    assertThat(result.code()).isEqualTo(1);
    assertThat(result.err()).contains("No Delta table at " + uri);
  }
}
