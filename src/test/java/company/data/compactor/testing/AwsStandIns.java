package company.data.compactor.testing;

import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.WireMock;

/**
 * One WireMock server per test JVM on 127.0.0.1, standing in for the AWS APIs that have no local
 * server here: Lambda {@code Invoke} (the webhook's asynchronous hand-off) and Secrets Manager.
 * Tests stub and inspect it through its admin API ({@link #client()}), which also works from
 * Quarkus's class loaders; the product's SDK clients talk real HTTP to it.
 */
public final class AwsStandIns {

  /** Where the port is published, so Quarkus's class loaders find the same server. */
  private static final String PORT_PROPERTY = "compactor.test.aws-stand-ins.port";

  private AwsStandIns() {}

  /** The port of this JVM's server, started on first call. */
  public static int port() {
    synchronized (System.class) {
      String port = System.getProperty(PORT_PROPERTY);
      if (port == null) {
        WireMockServer server =
            new WireMockServer(options().bindAddress("127.0.0.1").dynamicPort());
        server.start();
        Runtime.getRuntime().addShutdownHook(new Thread(server::stop));
        port = Integer.toString(server.port());
        System.setProperty(PORT_PROPERTY, port);
      }
      return Integer.parseInt(port);
    }
  }

  /** {@code http://127.0.0.1:<port>}. */
  public static String endpoint() {
    return "http://127.0.0.1:" + port();
  }

  /** A client of the server's admin API: stub, reset, find requests. */
  public static WireMock client() {
    return new WireMock("127.0.0.1", port());
  }
}
