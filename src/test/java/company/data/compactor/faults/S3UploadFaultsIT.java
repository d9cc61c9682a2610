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
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Outputs go up as multipart uploads whose parts travel side by side, and connections cut during
 * one (70 MB: nine parts) never leave a partial object.
 */
class S3UploadFaultsIT {

  private static final int SIZE = 70 * 1024 * 1024;

  @TempDir Path work;

  private static byte[] content() {
    byte[] bytes = new byte[SIZE];
    new Random(23).nextBytes(bytes);
    return bytes;
  }

  @Test
  void aPartCutMidBody_isRetried_andTheObjectIsWhole() throws IOException {
    String path = "s3://" + S3ProxyServer.shared().newBucket() + "/big.bin";
    byte[] content = content();
    try (FaultProxy proxy =
            FaultProxy.in(S3ProxyServer.shared().endpoint())
                .on("PUT", ".*partNumber=2.*", 1, 1, new Fault.Cut());
        S3Client client = S3Clients.fromEnvironment(FaultScenario.uploadEnvironment(proxy))) {
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
  void anOutputOfFortyMegabytes_goesUpInPartsSentSideBySide_andReadsBackWhole() throws IOException {
    String path = "s3://" + S3ProxyServer.shared().newBucket() + "/out.parquet";
    byte[] content = Arrays.copyOf(content(), 40 * 1024 * 1024);
    Path local = work.resolve("out.parquet");
    java.nio.file.Files.write(local, content);
    try (FaultProxy proxy = FaultProxy.in(S3ProxyServer.shared().endpoint());
        S3Client client = S3Clients.fromEnvironment(FaultScenario.uploadEnvironment(proxy))) {
      S3Storage storage = new S3Storage(client, work);

      storage.publishFile(local, path);

      var parts = proxy.awaitSeen("PUT", "partNumber=", 5);
      assertThat(parts).hasSize(5);
      assertThat(FaultProxy.maxInFlight(parts)).isBetween(2, 4);
      assertThat(local).doesNotExist();
      try (InputStream in = storage.openFrom(path, 0)) {
        assertThat(Arrays.equals(in.readAllBytes(), content)).isTrue();
      }
    }
  }

  @Test
  void aPartRefused_whileOthersAreInFlight_abortsOnceAfterTheLastPartEnded() throws IOException {
    String path = "s3://" + S3ProxyServer.shared().newBucket() + "/big.bin";
    Path local = work.resolve("big.bin");
    java.nio.file.Files.write(local, content());
    try (FaultProxy proxy =
            FaultProxy.in(S3ProxyServer.shared().endpoint())
                .on("PUT", ".*partNumber=1(&.*)?$", 1, 1000, Fault.s3(403, "AccessDenied"));
        S3Client client = S3Clients.fromEnvironment(FaultScenario.uploadEnvironment(proxy))) {
      S3Storage storage = new S3Storage(client, work);

      IOException e =
          catchThrowableOfType(IOException.class, () -> storage.publishFile(local, path));

      assertThat(e).hasMessageStartingWith("S3 failed while uploading " + path + ": ");
      // The proxy notes a request once its answer is sent: the client may be faster.
      var aborts = proxy.awaitSeen("DELETE", "uploadId=");
      assertThat(aborts).hasSize(1);
      var parts =
          proxy.seen().stream()
              .filter(r -> r.method().equals("PUT") && r.path().contains("partNumber="))
              .toList();
      assertThat(parts)
          .as(
              "the parts sent beside the refused one had ended (the proxy records a request at its end)")
          .hasSizeGreaterThan(1);
      long lastPartEnded =
          parts.stream().mapToLong(FaultProxy.Seen::endedNanos).max().orElseThrow();
      assertThat(aborts.get(0).startedNanos()).isGreaterThan(lastPartEnded);
      assertThat(catchThrowableOfType(FileNotFoundException.class, () -> storage.stat(path)))
          .hasMessage("No such object: " + path);
      assertThat(local).as("the local file stays for the caller to clean").exists();
    }
  }

  @Test
  void everyPartCut_theUploadFailsAndIsAborted_andNoObjectAppears() throws IOException {
    String path = "s3://" + S3ProxyServer.shared().newBucket() + "/big.bin";
    try (FaultProxy proxy =
            FaultProxy.in(S3ProxyServer.shared().endpoint())
                .on("PUT", ".*partNumber=2.*", 1, 1000, new Fault.Cut());
        S3Client client = S3Clients.fromEnvironment(FaultScenario.uploadEnvironment(proxy))) {
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
      assertThat(proxy.awaitSeen("DELETE", "uploadId=")).hasSize(1);
      assertThat(catchThrowableOfType(FileNotFoundException.class, () -> storage.stat(path)))
          .hasMessage("No such object: " + path);
    }
  }
}
