package company.data.compactor.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import company.data.compactor.storage.s3.S3Clients;
import company.data.compactor.storage.s3.S3Storage;
import company.data.compactor.testing.FaultProxy;
import company.data.compactor.testing.FaultProxy.Fault;
import company.data.compactor.testing.FaultScenario;
import company.data.compactor.testing.S3ProxyServer;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

/** Connections cut during a multipart upload (70 MB: three parts): never a partial object. */
class S3UploadFaultsIT {

  private static final int SIZE = 70 * 1024 * 1024;

  @TempDir Path work;

  private static byte[] content() {
    byte[] bytes = new byte[SIZE];
    new Random(23).nextBytes(bytes);
    return bytes;
  }

  private Map<String, String> environment(FaultProxy proxy) {
    Map<String, String> env = new HashMap<>(S3ProxyServer.shared().environment());
    env.put("AWS_ENDPOINT_URL_S3", proxy.endpoint().toString());
    env.putAll(FaultScenario.shortTimeouts());
    env.put("COMPACTOR_AWS_ATTEMPT_TIMEOUT_MS", "20000");
    env.put("COMPACTOR_AWS_CALL_TIMEOUT_MS", "60000");
    return env;
  }

  @Test
  void aPartCutMidBody_isRetried_andTheObjectIsWhole() throws IOException {
    String path = "s3://" + S3ProxyServer.shared().newBucket() + "/big.bin";
    byte[] content = content();
    try (FaultProxy proxy =
            FaultProxy.in(S3ProxyServer.shared().endpoint())
                .on("PUT", ".*partNumber=2.*", 1, 1, new Fault.Cut());
        S3Client client = S3Clients.fromEnvironment(environment(proxy))) {
      S3Storage storage = new S3Storage(client, work);

      try (OutputStream out = storage.create(path)) {
        out.write(content);
      }

      assertThat(proxy.seen()).filteredOn(r -> r.action().equals("Cut")).hasSize(1);
      try (InputStream in = storage.openFrom(path, 0)) {
        assertThat(Arrays.equals(in.readAllBytes(), content)).isTrue();
      }
    }
  }

  @Test
  void everyPartCut_theUploadFailsAndIsAborted_andNoObjectAppears() throws IOException {
    String path = "s3://" + S3ProxyServer.shared().newBucket() + "/big.bin";
    try (FaultProxy proxy =
            FaultProxy.in(S3ProxyServer.shared().endpoint())
                .on("PUT", ".*partNumber=2.*", 1, 1000, new Fault.Cut());
        S3Client client = S3Clients.fromEnvironment(environment(proxy))) {
      S3Storage storage = new S3Storage(client, work);

      IOException e =
          catchThrowableOfType(
              IOException.class,
              () -> {
                try (OutputStream out = storage.create(path)) {
                  out.write(content());
                }
              });

      assertThat(e).hasMessageStartingWith("S3 failed while uploading " + path + ": ");
      assertThat(proxy.seen())
          .filteredOn(r -> r.method().equals("DELETE") && r.path().contains("uploadId="))
          .hasSize(1);
      assertThat(catchThrowableOfType(FileNotFoundException.class, () -> storage.stat(path)))
          .hasMessage("No such object: " + path);
    }
  }
}
