package company.data.compactor.faults;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.testing.CliRunner;
import company.data.compactor.testing.S3ProxyServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a person sees when an {@code s3://} table cannot be read: the cause and the fix in the one
 * error line, and no retry warnings from the Delta kernel (log records and stderr captured).
 */
class S3ErrorMessagesIT {

  private final List<String> logged = new CopyOnWriteArrayList<>();
  private final Handler capture =
      new Handler() {
        @Override
        public void publish(LogRecord record) {
          logged.add(record.getLoggerName() + " " + record.getMessage());
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };
  private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
  private PrintStream originalErr;

  @BeforeEach
  void captureLogs() {
    Logger.getLogger("").addHandler(capture);
    originalErr = System.err;
    System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void release() {
    System.setErr(originalErr);
    Logger.getLogger("").removeHandler(capture);
  }

  private String noise() {
    return String.join("\n", logged) + "\n" + stderr.toString(StandardCharsets.UTF_8);
  }

  @Test
  void anUnreachableEndpoint_isNamedWithTheFix_inOneLine_withoutRetryWarnings() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    Map<String, String> env = new HashMap<>(S3ProxyServer.shared().environment());
    env.put("AWS_ENDPOINT_URL_S3", "http://127.0.0.1:" + port);
    env.put("COMPACTOR_AWS_MAX_ATTEMPTS", "1");

    CliRunner.Result result = CliRunner.run(env, "inspect", "--table-uri", "s3://bucket/t");

    assertThat(result.code()).isEqualTo(1);
    assertThat(result.err().strip().lines()).hasSize(1);
    assertThat(result.err())
        .startsWith("compactor: error: Failed while listing the Delta log of s3://bucket/t: ")
        .contains("connection refused to http://127.0.0.1:" + port + " (")
        .contains(
            "Fix: check AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL, and that the S3 server there is"
                + " running")
        .doesNotContain("Failed to list the files in delta log");
    assertThat(noise()).doesNotContain("Retrying after").doesNotContain("_last_checkpoint");
  }

  @Test
  void aPathThatIsNotATable_isTableNotFound_withoutRetryWarnings() {
    S3ProxyServer s3 = S3ProxyServer.shared();
    String bucket = s3.newBucket();

    CliRunner.Result result =
        CliRunner.run(s3.environment(), "inspect", "--table-uri", "s3://" + bucket + "/nothing");

    assertThat(result.code()).isNotZero();
    assertThat(result.err().strip().lines()).hasSize(1);
    assertThat(result.err()).contains("No Delta table at s3://" + bucket + "/nothing");
    assertThat(noise()).doesNotContain("Retrying after");
  }
}
