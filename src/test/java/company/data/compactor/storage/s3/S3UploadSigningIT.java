package company.data.compactor.storage.s3;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.put;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How an upload goes over the wire to an S3-compatible store on plain HTTP (S3Proxy, MinIO): one
 * body signed whole, not aws-chunked with a signature per 128 KB chunk, which halved upload speed
 * on S3Proxy (30 MB: ~1.45 s -> ~0.72 s through the bench's proxy). A real HTTP server records the
 * request; S3Proxy cannot show it.
 */
class S3UploadSigningIT {

  private WireMockServer server;

  @TempDir Path dir;

  @BeforeEach
  void start() {
    server = new WireMockServer(options().bindAddress("127.0.0.1").dynamicPort());
    server.start();
    server.stubFor(
        put(urlPathEqualTo("/bkt/t/part-0.parquet"))
            .willReturn(aResponse().withStatus(200).withHeader("ETag", "\"e\"")));
  }

  @AfterEach
  void stop() {
    server.stop();
  }

  @Test
  void anUploadOverHttp_sendsTheFileAsOneBodySignedWhole() throws Exception {
    byte[] content = new byte[600_000];
    new Random(3).nextBytes(content);
    Path local = Files.write(dir.resolve("out.parquet"), content);
    Map<String, String> env =
        Map.of(
            "AWS_ENDPOINT_URL_S3", "http://127.0.0.1:" + server.port(),
            "AWS_REGION", "us-east-1",
            "AWS_ACCESS_KEY_ID", "key",
            "AWS_SECRET_ACCESS_KEY", "secret",
            "COMPACTOR_S3_PATH_STYLE", "true");
    S3Storage storage =
        new S3Storage(
            S3Clients.fromEnvironment(env), S3Clients.forConditionalWrites(env), dir.resolve("t"));

    storage.publishFile(local, "s3://bkt/t/part-0.parquet");

    List<LoggedRequest> puts =
        server.findAll(
            com.github.tomakehurst.wiremock.client.WireMock.putRequestedFor(
                urlPathEqualTo("/bkt/t/part-0.parquet")));
    assertThat(puts).hasSize(1);
    LoggedRequest request = puts.get(0);
    String sha256 = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
    assertThat(request.getHeader("x-amz-content-sha256")).isEqualTo(sha256);
    assertThat(
            request.containsHeader("Content-Encoding") ? request.getHeader("Content-Encoding") : "")
        .doesNotContain("aws-chunked");
    assertThat(request.getBody()).isEqualTo(content);
    assertThat(local).doesNotExist();
  }
}
