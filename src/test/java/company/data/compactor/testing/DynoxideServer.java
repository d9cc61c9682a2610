package company.data.compactor.testing;

import company.data.compactor.aws.AwsClients;
import company.data.compactor.lease.dynamodb.DynamoDbLeaseStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * One real Dynoxide server (a DynamoDB-compatible server, static binary from npm {@code
 * @dynoxide/linux-x64}) per test JVM, in memory, on 127.0.0.1 and an ephemeral port. The binary is
 * installed into {@code .tools/dynoxide} on first use (npm, pinned version) and reused afterwards;
 * the server stops when the JVM exits.
 */
public final class DynoxideServer {

  public static final String VERSION = "1.2.1";
  private static final Path INSTALL = Path.of(".tools", "dynoxide").toAbsolutePath();
  private static final Path BINARY = INSTALL.resolve("node_modules/@dynoxide/linux-x64/dynoxide");

  private static DynoxideServer shared;

  private final int port;

  private DynoxideServer(int port) {
    this.port = port;
  }

  /** Where the port is published, so Quarkus's class loaders find the same server. */
  private static final String PORT_PROPERTY = "compactor.test.dynoxide.port";

  /** The server of this JVM, installed and started on first call. */
  public static synchronized DynoxideServer shared() {
    if (shared == null) {
      synchronized (System.class) {
        String port = System.getProperty(PORT_PROPERTY);
        shared = port != null ? new DynoxideServer(Integer.parseInt(port)) : start();
        System.setProperty(PORT_PROPERTY, Integer.toString(shared.port));
      }
    }
    return shared;
  }

  private static void install() throws IOException, InterruptedException {
    if (Files.isExecutable(BINARY)) {
      return;
    }
    Files.createDirectories(INSTALL);
    Process npm =
        new ProcessBuilder(
                List.of(
                    "npm",
                    "install",
                    "--no-audit",
                    "--no-fund",
                    "--prefix",
                    INSTALL.toString(),
                    "@dynoxide/linux-x64@" + VERSION))
            .redirectErrorStream(true)
            .redirectOutput(INSTALL.resolve("npm-install.log").toFile())
            .start();
    if (!npm.waitFor(5, TimeUnit.MINUTES) || npm.exitValue() != 0 || !Files.isExecutable(BINARY)) {
      throw new IOException(
          "installing Dynoxide with npm failed: "
              + Files.readString(INSTALL.resolve("npm-install.log")));
    }
  }

  private static DynoxideServer start() {
    try {
      install();
      int port;
      try (ServerSocket socket = new ServerSocket(0)) {
        port = socket.getLocalPort();
      }
      Path log = Files.createDirectories(Path.of("target")).resolve("dynoxide-" + port + ".log");
      Process process =
          new ProcessBuilder(
                  List.of(
                      BINARY.toString(),
                      "serve",
                      "--host",
                      "127.0.0.1",
                      "--port",
                      Integer.toString(port)))
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      Runtime.getRuntime().addShutdownHook(new Thread(process::destroy));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (true) {
        try (Socket s = new Socket()) {
          s.connect(new InetSocketAddress("127.0.0.1", port), 200);
          return new DynoxideServer(port);
        } catch (IOException notYet) {
          if (!process.isAlive() || System.nanoTime() > deadline) {
            throw new IOException("Dynoxide did not start: " + Files.readString(log));
          }
          Thread.sleep(50);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while starting Dynoxide", e);
    }
  }

  /** {@code http://127.0.0.1:<port>}. */
  public String endpoint() {
    return "http://127.0.0.1:" + port;
  }

  /** The environment a compactor needs to reach this server (as users configure it). */
  public Map<String, String> environment() {
    Map<String, String> env = new HashMap<>();
    env.put("AWS_ENDPOINT_URL_DYNAMODB", endpoint());
    env.put("AWS_REGION", "us-east-1");
    env.put("AWS_ACCESS_KEY_ID", "compactor-test");
    env.put("AWS_SECRET_ACCESS_KEY", "compactor-test-secret");
    return env;
  }

  /** A client built the way the product builds its clients. */
  public DynamoDbClient client() {
    return AwsClients.configure(DynamoDbClient.builder(), environment(), "DYNAMODB").build();
  }

  /** Creates a fresh lease table (as infra/template.yaml defines it) and returns its name. */
  public String newLeaseTable() {
    String name = "leases-" + UUID.randomUUID().toString().substring(0, 8);
    createLeaseTable(name);
    return name;
  }

  /** Creates a fresh telemetry table (as infra/template.yaml defines it) and returns its name. */
  public String newTelemetryTable() {
    String name = "telemetry-" + UUID.randomUUID().toString().substring(0, 8);
    try (DynamoDbClient client = client()) {
      client.createTable(
          b ->
              b.tableName(name)
                  .billingMode(BillingMode.PAY_PER_REQUEST)
                  .attributeDefinitions(
                      AttributeDefinition.builder()
                          .attributeName("table_key")
                          .attributeType(ScalarAttributeType.S)
                          .build(),
                      AttributeDefinition.builder()
                          .attributeName("run_key")
                          .attributeType(ScalarAttributeType.S)
                          .build())
                  .keySchema(
                      KeySchemaElement.builder()
                          .attributeName("table_key")
                          .keyType(KeyType.HASH)
                          .build(),
                      KeySchemaElement.builder()
                          .attributeName("run_key")
                          .keyType(KeyType.RANGE)
                          .build()));
    }
    return name;
  }

  /** Creates the lease table {@code name} unless it exists. */
  public void createLeaseTable(String name) {
    try (DynamoDbClient client = client()) {
      if (client.listTables().tableNames().contains(name)) {
        return;
      }
      client.createTable(
          b ->
              b.tableName(name)
                  .billingMode(BillingMode.PAY_PER_REQUEST)
                  .attributeDefinitions(
                      AttributeDefinition.builder()
                          .attributeName(DynamoDbLeaseStore.KEY)
                          .attributeType(ScalarAttributeType.S)
                          .build())
                  .keySchema(
                      KeySchemaElement.builder()
                          .attributeName(DynamoDbLeaseStore.KEY)
                          .keyType(KeyType.HASH)
                          .build()));
    }
  }
}
