package company.data.compactor.storage.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import company.data.compactor.storage.Storage;
import company.data.compactor.storage.StorageContract;
import company.data.compactor.storage.StoredObject;
import company.data.compactor.testing.S3ProxyServer;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/** The storage contract against a real S3 API (S3Proxy on loopback, SigV4 checked). */
class S3StorageIT extends StorageContract {

  private static S3Client client;
  private static String bucket;

  @TempDir Path uploads;
  private final String root = "prefix-" + UUID.randomUUID();

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

  @Override
  protected Storage storage() {
    return new S3Storage(client, uploads);
  }

  @Override
  protected String root() {
    return "s3://" + bucket + "/" + root;
  }

  @Test
  void listings_pagePastAThousandKeys_andDeletesGoInBatches() throws Exception {
    List<String> paths = new ArrayList<>();
    for (int i = 0; i < 1105; i++) {
      String key = root + "/many/" + String.format("%05d.json", i);
      client.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromString("x"));
      paths.add("s3://" + bucket + "/" + key);
    }

    assertThat(storage().listRecursively(root() + "/many")).hasSize(1105);
    assertThat(storage().listFrom(root() + "/many/01000").stream().map(StoredObject::name))
        .hasSize(105)
        .first()
        .isEqualTo("01000.json");
    assertThat(storage().deleteAll(paths)).isEqualTo(1105);
    assertThat(storage().listRecursively(root() + "/many")).isEmpty();
  }

  @Test
  void largeFiles_goUpAsMultipartUploads_andReadBackWhole() throws Exception {
    byte[] block = new byte[1 << 20];
    for (int i = 0; i < block.length; i++) {
      block[i] = (byte) (i * 31);
    }
    String path = root() + "/big.bin";
    try (OutputStream out = storage().create(path)) {
      for (int i = 0; i < 70; i++) {
        out.write(block);
      }
    }

    assertThat(storage().stat(path).sizeBytes()).isEqualTo(70L << 20);
    try (InputStream in = storage().openFrom(path, (69L << 20) + 5)) {
      byte[] tail = in.readAllBytes();
      assertThat(tail).hasSize((1 << 20) - 5);
      assertThat(tail[0]).isEqualTo(block[5]);
    }
  }

  @Test
  void wrongCredentials_areRefusedByTheServer() {
    var env = new java.util.HashMap<>(S3ProxyServer.shared().environment());
    env.put("AWS_SECRET_ACCESS_KEY", "wrong");
    try (S3Client wrong = S3Clients.fromEnvironment(env)) {
      S3Storage storage = new S3Storage(wrong, uploads);
      assertThatThrownBy(() -> storage.listRecursively(root()))
          .hasMessageContaining("S3 failed while listing");
    }
  }
}
