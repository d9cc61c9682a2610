package company.data.compactor.testing;

import company.data.compactor.storage.s3.S3Clients;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * One real S3Proxy server per test JVM, on 127.0.0.1 and an ephemeral port, with a filesystem
 * backend under {@code target/}, SigV4 checked. Started on first use in a child process (the
 * project's own test classpath), stopped when the JVM exits.
 */
public final class S3ProxyServer {

  public static final String ACCESS_KEY = "compactor-test";
  public static final String SECRET_KEY = "compactor-test-secret";

  private static S3ProxyServer shared;

  private final int port;
  private final Process process;

  private S3ProxyServer(int port, Process process) {
    this.port = port;
    this.process = process;
  }

  /** The server of this JVM, started on first call. */
  public static synchronized S3ProxyServer shared() {
    if (shared == null) {
      shared = start();
      Runtime.getRuntime().addShutdownHook(new Thread(shared.process::destroy));
    }
    return shared;
  }

  private static S3ProxyServer start() {
    try {
      int port;
      try (ServerSocket socket = new ServerSocket(0)) {
        port = socket.getLocalPort();
      }
      Path base =
          Files.createDirectories(
              Path.of("target", "s3proxy-" + UUID.randomUUID()).toAbsolutePath());
      Path properties = base.resolve("s3proxy.properties");
      Files.writeString(
          properties,
          String.join(
              "\n",
              "s3proxy.endpoint=http://127.0.0.1:" + port,
              "s3proxy.authorization=aws-v2-or-v4",
              "s3proxy.identity=" + ACCESS_KEY,
              "s3proxy.credential=" + SECRET_KEY,
              "jclouds.provider=filesystem",
              "jclouds.filesystem.basedir=" + base.resolve("data"),
              ""));
      Files.createDirectories(base.resolve("data"));
      List<String> command =
          new ArrayList<>(
              List.of(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-Xmx256m",
                  "-cp",
                  System.getProperty("java.class.path"),
                  "org.gaul.s3proxy.Main",
                  "--properties",
                  properties.toString()));
      Process process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(base.resolve("s3proxy.log").toFile())
              .start();
      S3ProxyServer server = new S3ProxyServer(port, process);
      server.awaitReady(base.resolve("s3proxy.log"));
      return server;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start S3Proxy", e);
    }
  }

  private void awaitReady(Path log) throws IOException {
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IOException("S3Proxy exited: " + Files.readString(log));
      }
      try {
        HttpURLConnection c = (HttpURLConnection) endpoint().toURL().openConnection();
        c.setConnectTimeout(500);
        c.getResponseCode();
        c.disconnect();
        return;
      } catch (IOException notYet) {
        try {
          Thread.sleep(100);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted while waiting for S3Proxy", e);
        }
      }
    }
    throw new IOException("S3Proxy did not start within 60 s: " + Files.readString(log));
  }

  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + port);
  }

  /** The environment a compactor needs to reach this server (as users configure it). */
  public Map<String, String> environment() {
    Map<String, String> env = new HashMap<>();
    env.put("AWS_ENDPOINT_URL_S3", endpoint().toString());
    env.put("AWS_REGION", "us-east-1");
    env.put("AWS_ACCESS_KEY_ID", ACCESS_KEY);
    env.put("AWS_SECRET_ACCESS_KEY", SECRET_KEY);
    env.put("COMPACTOR_S3_PATH_STYLE", "true");
    return env;
  }

  /** A client built the way the product builds it. */
  public S3Client client() {
    return S3Clients.fromEnvironment(environment());
  }

  /** Creates a fresh bucket and returns its name. */
  public String newBucket() {
    String bucket = "test-" + UUID.randomUUID().toString().substring(0, 8);
    try (S3Client client = client()) {
      client.createBucket(b -> b.bucket(bucket));
    }
    return bucket;
  }
}
