package company.data.compactor.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.model.TableLocation;
import company.data.compactor.storage.Scratch;
import company.data.compactor.storage.s3.S3Storage;
import company.data.compactor.testing.S3ProxyServer;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * An S3 upload's local buffer is a locked scratch directory of its own: a sweep never takes one in
 * progress, and closing the stream removes it (S3Proxy on loopback).
 */
class S3UploadBufferSweepIT {

  private static S3Client client;
  private static String bucket;

  @TempDir Path dir;

  @BeforeAll
  static void server() {
    S3ProxyServer server = S3ProxyServer.shared();
    client = server.client();
    bucket = server.newBucket();
  }

  @AfterAll
  static void close() {
    client.close();
  }

  private static List<Path> entries(Path root) throws Exception {
    if (!Files.isDirectory(root)) {
      return List.of();
    }
    try (Stream<Path> listed = Files.list(root)) {
      return listed.toList();
    }
  }

  @Test
  void anUploadInProgress_keepsItsBufferLocked_soASweepADayLaterLeavesIt_andCloseRemovesIt()
      throws Exception {
    Path uploads = dir.resolve("uploads");
    S3Storage storage = new S3Storage(client, uploads);
    String table = "s3://" + bucket + "/t";
    Sweeper sweeper =
        new Sweeper(
            storage,
            List.of(uploads),
            new SweepPolicy(Duration.ofMinutes(20), Duration.ofHours(168)),
            Clock.fixed(Instant.now().plus(Duration.ofDays(1)), ZoneOffset.UTC));
    Path buffer;

    try (OutputStream out = storage.create(table + "/part-1.parquet")) {
      out.write("half".getBytes(StandardCharsets.UTF_8));
      List<Path> buffers = entries(uploads);
      assertThat(buffers).hasSize(1);
      buffer = buffers.get(0);
      assertThat(buffer.getFileName().toString()).startsWith(Scratch.RUN_PREFIX);
      assertThat(buffer.resolve(Scratch.LOCK_FILE)).isRegularFile();

      SweepResult during = sweeper.sweep(new TableLocation(table));

      assertThat(during.scratchDirsInUse()).isEqualTo(1);
      assertThat(during.scratchDirsSwept()).isZero();
      assertThat(buffer).isDirectory();
    }

    assertThat(buffer).as("the buffer after the upload").doesNotExist();
    assertThat(entries(uploads)).isEmpty();
    assertThat(storage.stat(table + "/part-1.parquet").sizeBytes()).isEqualTo(4);
  }
}
