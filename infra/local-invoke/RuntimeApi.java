import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A loopback AWS Lambda Runtime API (2018-06-01) serving exactly one invocation, for running the
 * packaged function under AWS's own runtime interface client without Docker or SAM CLI.
 *
 * <p>Usage: {@code java RuntimeApi.java EVENT_FILE PORT_FILE RESULT_FILE TIMEOUT_SECONDS}. Writes the
 * port it listens on to PORT_FILE, hands EVENT_FILE to the first {@code invocation/next}, writes
 * the function's response (or error) to RESULT_FILE and exits 0 on a response, 1 on an error, 2 on
 * timeout. Later {@code next} calls wait until the process exits, as Lambda freezes an idle
 * function.
 */
public final class RuntimeApi {

  private static final String PREFIX = "/2018-06-01/runtime/";

  public static void main(String[] args) throws Exception {
    byte[] event = Files.readAllBytes(Path.of(args[0]));
    Path portFile = Path.of(args[1]);
    Path resultFile = Path.of(args[2]);
    long timeoutSeconds = Long.parseLong(args[3]);
    String requestId = UUID.randomUUID().toString();
    CountDownLatch done = new CountDownLatch(1);
    int[] exit = {2};
    boolean[] handedOut = {false};

    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
    server.setExecutor(Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r);
      t.setDaemon(true);
      return t;
    }));
    server.createContext(PREFIX, exchange -> {
      String path = exchange.getRequestURI().getPath().substring(PREFIX.length());
      byte[] body = exchange.getRequestBody().readAllBytes();
      if (path.equals("invocation/next")) {
        synchronized (handedOut) {
          if (handedOut[0]) {
            awaitQuietly(done);
            respond(exchange, 500, new byte[0]);
            return;
          }
          handedOut[0] = true;
        }
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.getResponseHeaders().add("Lambda-Runtime-Aws-Request-Id", requestId);
        exchange.getResponseHeaders().add("Lambda-Runtime-Deadline-Ms",
            Long.toString(System.currentTimeMillis() + TimeUnit.SECONDS.toMillis(timeoutSeconds)));
        exchange.getResponseHeaders().add("Lambda-Runtime-Invoked-Function-Arn",
            "arn:aws:lambda:us-east-1:000000000000:function:delta-compactor-local");
        exchange.getResponseHeaders().add("Lambda-Runtime-Trace-Id", "Root=1-00000000-000000000000000000000000");
        respond(exchange, 200, event);
      } else if (path.equals("invocation/" + requestId + "/response")) {
        finish(resultFile, body, 0, exit, done);
        respond(exchange, 202, new byte[0]);
      } else if (path.equals("invocation/" + requestId + "/error") || path.equals("init/error")) {
        finish(resultFile, body, 1, exit, done);
        respond(exchange, 202, new byte[0]);
      } else {
        respond(exchange, 404, new byte[0]);
      }
    });
    server.start();
    Files.writeString(portFile, Integer.toString(server.getAddress().getPort()));
    if (!done.await(timeoutSeconds, TimeUnit.SECONDS)) {
      Files.writeString(resultFile, "{\"errorMessage\": \"no response within " + timeoutSeconds + " s\"}");
    }
    server.stop(0);
    System.exit(exit[0]);
  }

  private static void finish(Path resultFile, byte[] body, int code, int[] exit, CountDownLatch done) throws IOException {
    Files.write(resultFile, body);
    exit[0] = code;
    done.countDown();
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void respond(HttpExchange exchange, int status, byte[] body) throws IOException {
    exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
    if (body.length > 0) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
    exchange.close();
  }

  private RuntimeApi() {}
}
