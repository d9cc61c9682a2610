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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The edges of multipart uploads: sizes at the threshold and at part boundaries go up whole in the
 * number of parts their size asks for, and a part refused on every attempt while the others go up
 * leaves no object.
 */
class S3MultipartEdgesIT {

  private static final int MB = 1024 * 1024;

  @TempDir Path work;

  private Path file(int size) throws IOException {
    byte[] bytes = new byte[size];
    new Random(size).nextBytes(bytes);
    return Files.write(work.resolve("out-" + size + ".parquet"), bytes);
  }

  private static List<FaultProxy.Seen> parts(FaultProxy proxy) {
    return proxy.seen().stream()
        .filter(r -> r.method().equals("PUT") && r.path().contains("partNumber="))
        .toList();
  }

  @ParameterizedTest
  @CsvSource({
    "0, 0",
    "1, 0",
    "16777216, 0", // 16 MB: the threshold itself goes up in one PUT
    "16777217, 3", // 16 MB + 1: 8 MB, 8 MB and one byte
    "25165824, 3", // 24 MB: three whole parts, no empty fourth
    "25165825, 4"
  })
  void aFileAtAnEdge_goesUpWhole_inTheNumberOfPartsItsSizeAsksFor(int size, int expectedParts)
      throws IOException {
    String path = "s3://" + S3ProxyServer.shared().newBucket() + "/out.parquet";
    Path local = file(size);
    byte[] content = Files.readAllBytes(local);
    try (FaultProxy proxy = FaultProxy.in(S3ProxyServer.shared().endpoint());
        S3Client client = S3Clients.fromEnvironment(FaultScenario.uploadEnvironment(proxy))) {
      S3Storage storage = new S3Storage(client, work);

      storage.publishFile(local, path);

      assertThat(parts(proxy)).hasSize(expectedParts);
      assertThat(storage.stat(path).sizeBytes()).isEqualTo(size);
      try (InputStream in = storage.openFrom(path, 0)) {
        assertThat(Arrays.equals(in.readAllBytes(), content)).isTrue();
      }
    }
  }

  @Test
  void aPartRefusedOnEveryAttempt_whileTheOthersGoUp_leavesNoObject_andIsAbortedOnce()
      throws IOException {
    String path = "s3://" + S3ProxyServer.shared().newBucket() + "/out.parquet";
    Path local = file(5 * 8 * MB);
    try (FaultProxy proxy =
            FaultProxy.in(S3ProxyServer.shared().endpoint())
                .on("PUT", ".*partNumber=3(&.*)?$", 1, 3, Fault.s3(500, "InternalError"));
        S3Client client = S3Clients.fromEnvironment(FaultScenario.uploadEnvironment(proxy))) {
      S3Storage storage = new S3Storage(client, work);

      IOException e =
          catchThrowableOfType(IOException.class, () -> storage.publishFile(local, path));

      assertThat(e).hasMessageStartingWith("S3 failed while uploading " + path + ": ");
      assertThat(parts(proxy).stream().filter(r -> r.path().contains("partNumber=3")))
          .as("three attempts, each refused")
          .hasSize(3);
      assertThat(proxy.awaitSeen("DELETE", "uploadId=")).hasSize(1);
      assertThat(
              proxy.seen().stream()
                  .filter(r -> r.method().equals("POST") && r.path().contains("uploadId=")))
          .as("never completed")
          .isEmpty();
      assertThat(catchThrowableOfType(FileNotFoundException.class, () -> storage.stat(path)))
          .hasMessage("No such object: " + path);
    }
  }

  @Test
  void aPartRefusedOnItsFirstTwoAttempts_isSentAgainFromTheFile_andTheObjectIsWhole()
      throws IOException {
    String path = "s3://" + S3ProxyServer.shared().newBucket() + "/out.parquet";
    Path local = file(5 * 8 * MB - 3);
    byte[] content = Files.readAllBytes(local);
    try (FaultProxy proxy =
            FaultProxy.in(S3ProxyServer.shared().endpoint())
                .on("PUT", ".*partNumber=5(&.*)?$", 1, 1, new Fault.Cut())
                .on("PUT", ".*partNumber=5(&.*)?$", 2, 2, Fault.s3(500, "InternalError"));
        S3Client client = S3Clients.fromEnvironment(FaultScenario.uploadEnvironment(proxy))) {
      S3Storage storage = new S3Storage(client, work);

      storage.publishFile(local, path);

      try (InputStream in = storage.openFrom(path, 0)) {
        assertThat(Arrays.equals(in.readAllBytes(), content)).isTrue();
      }
    }
  }

  @Test
  void theCompletionsAnswerLost_eitherTheObjectIsWhole_orTheUploadFailsWithNoObject()
      throws IOException {
    String path = "s3://" + S3ProxyServer.shared().newBucket() + "/out.parquet";
    Path local = file(3 * 8 * MB);
    byte[] content = Files.readAllBytes(local);
    try (FaultProxy proxy =
            FaultProxy.in(S3ProxyServer.shared().endpoint())
                .on("POST", ".*uploadId=.*", 1, 1, new Fault.DropResponse());
        S3Client client = S3Clients.fromEnvironment(FaultScenario.uploadEnvironment(proxy))) {
      S3Storage storage = new S3Storage(client, work);

      IOException e =
          catchThrowableOfType(IOException.class, () -> storage.publishFile(local, path));

      if (e == null) {
        try (InputStream in = storage.openFrom(path, 0)) {
          assertThat(Arrays.equals(in.readAllBytes(), content)).isTrue();
        }
      } else {
        assertThat(catchThrowableOfType(FileNotFoundException.class, () -> storage.stat(path)))
            .as("the upload failed (" + e.getMessage() + "), so no object may be there")
            .hasMessage("No such object: " + path);
      }
    }
  }
}
