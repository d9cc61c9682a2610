package company.data.compactor.testing;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * An HTTP/1.1 proxy on 127.0.0.1 in front of one upstream server (S3Proxy, Dynoxide, WireMock) that
 * injects one kind of fault into chosen requests. A rule matches by method, a regular expression
 * over the path (query included) and optionally the {@code X-Amz-Target} operation (DynamoDB's API
 * is one POST path), and applies to its {@code from}-th to {@code to}-th matching request;
 * everything else is forwarded unchanged (bytes as sent, so SigV4 signatures stay valid).
 *
 * <p>Faults: {@link Fault.DropResponse} forwards the request and then closes the connection without
 * answering (the server did the work, the client never hears); {@link Fault.Answer} answers with a
 * status without forwarding; {@link Fault.Hang} never answers; {@link Fault.Cut} reads the headers
 * and half the body, then closes the connection (the server never sees the request).
 */
public final class FaultProxy implements AutoCloseable {

  /** What happens to a matching request. */
  public sealed interface Fault {
    /** Forward, then close the connection without sending the response. */
    record DropResponse() implements Fault {}

    /** Answer {@code status} with {@code body} without forwarding. */
    record Answer(int status, String contentType, String body) implements Fault {}

    /** Never answer (until the client gives up or the proxy closes). */
    record Hang() implements Fault {}

    /** Close the connection half-way through the request body, without forwarding. */
    record Cut() implements Fault {}

    /**
     * Wait {@code millis} before the request is handled, then apply {@code then} (null: forward).
     */
    record Delayed(long millis, Fault then) implements Fault {}

    /** An S3-style error answer. */
    static Fault s3(int status, String code) {
      return new Answer(
          status,
          "application/xml",
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>"
              + code
              + "</Code><Message>injected by FaultProxy</Message></Error>");
    }

    /** A DynamoDB-style error answer, e.g. {@code ProvisionedThroughputExceededException}. */
    static Fault dynamoDb(int status, String type) {
      return new Answer(
          status,
          "application/x-amz-json-1.0",
          "{\"__type\":\"com.amazonaws.dynamodb.v20120810#"
              + type
              + "\",\"message\":\"injected by FaultProxy\"}");
    }
  }

  /**
   * Applies {@code fault} to the {@code from}-th to {@code to}-th request (1-based, inclusive)
   * matching {@code method}, {@code path} and, when not null, {@code target} (the end of {@code
   * X-Amz-Target}, e.g. {@code PutItem}).
   */
  public record Rule(String method, Pattern path, String target, int from, int to, Fault fault) {}

  /**
   * A request the proxy saw and what it did with it.
   *
   * @param responseBodyBytes bytes of the response body sent back (0 when none was sent)
   * @param startedNanos when the request's headers had arrived ({@link System#nanoTime})
   * @param endedNanos when the proxy was done with it (answer sent, or gave up)
   */
  public record Seen(
      String method,
      String path,
      String target,
      String action,
      long responseBodyBytes,
      long startedNanos,
      long endedNanos) {

    Seen(String method, String path, String target, String action, long startedNanos) {
      this(method, path, target, action, 0, startedNanos, System.nanoTime());
    }
  }

  /**
   * The most of {@code requests} that were in the proxy at the same moment (overlapping from
   * headers received to answer sent): what a client really ran concurrently.
   */
  public static int maxInFlight(List<Seen> requests) {
    List<long[]> events = new ArrayList<>();
    for (Seen r : requests) {
      events.add(new long[] {r.startedNanos(), 1});
      events.add(new long[] {r.endedNanos(), -1});
    }
    events.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
    int current = 0;
    int max = 0;
    for (long[] e : events) {
      current += (int) e[1];
      max = Math.max(max, current);
    }
    return max;
  }

  private final URI upstream;
  private final ServerSocket server;
  private final ExecutorService connections =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "fault-proxy");
            t.setDaemon(true);
            return t;
          });
  private final List<Rule> rules = new CopyOnWriteArrayList<>();
  private final ConcurrentHashMap<Rule, AtomicInteger> matches = new ConcurrentHashMap<>();
  private final List<Seen> seen = new CopyOnWriteArrayList<>();
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  private FaultProxy(URI upstream) throws IOException {
    this.upstream = upstream;
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    connections.submit(this::acceptLoop);
  }

  /** A proxy in front of {@code upstream} ({@code http://host:port}). */
  public static FaultProxy in(URI upstream) {
    try {
      return new FaultProxy(upstream);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code http://127.0.0.1:<port>} of the proxy. */
  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.getLocalPort());
  }

  /** Adds a rule; rules are tried in the order added, and the first that applies wins. */
  public FaultProxy on(String method, String pathRegex, int from, int to, Fault fault) {
    rules.add(new Rule(method, Pattern.compile(pathRegex), null, from, to, fault));
    return this;
  }

  /** Adds a rule for the DynamoDB operation {@code target} (e.g. {@code PutItem}). */
  public FaultProxy onDynamoDb(String target, int from, int to, Fault fault) {
    rules.add(new Rule("POST", Pattern.compile(".*"), target, from, to, fault));
    return this;
  }

  /** Removes every rule: from now on everything is forwarded. */
  public FaultProxy clear() {
    rules.clear();
    return this;
  }

  /**
   * The requests seen so far with {@code method} whose path contains {@code pathPart}, waiting up
   * to 5 s for the first: the proxy notes a request once its answer is sent, so a client that got
   * the answer may look before the note is made.
   */
  public List<Seen> awaitSeen(String method, String pathPart) {
    return awaitSeen(method, pathPart, 1);
  }

  /**
   * As {@link #awaitSeen(String, String)}, waiting up to 5 s for {@code atLeast} of them (the last
   * answers of a burst may reach the client before the proxy has noted them). More than {@code
   * atLeast} come back as seen, so an exact count still fails on one too many.
   */
  public List<Seen> awaitSeen(String method, String pathPart, int atLeast) {
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (true) {
      List<Seen> found =
          seen().stream()
              .filter(r -> r.method().equals(method) && r.path().contains(pathPart))
              .toList();
      if (found.size() >= atLeast || System.nanoTime() > deadline) {
        return found;
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return found;
      }
    }
  }

  /** Every request seen so far, in arrival order. */
  public List<Seen> seen() {
    return List.copyOf(seen);
  }

  @Override
  public void close() {
    closed = true;
    try {
      server.close();
    } catch (IOException ignored) {
      // closing anyway
    }
    for (Socket socket : open) {
      closeQuietly(socket);
    }
    connections.shutdownNow();
  }

  private void acceptLoop() {
    while (!closed) {
      try {
        Socket client = server.accept();
        open.add(client);
        connections.submit(() -> serve(client));
      } catch (IOException e) {
        if (!closed) {
          throw new UncheckedIOException(e);
        }
      }
    }
  }

  private void serve(Socket client) {
    try (client) {
      InputStream in = new java.io.BufferedInputStream(client.getInputStream());
      OutputStream out = client.getOutputStream();
      while (!closed) {
        Request request = Request.read(in, out);
        if (request == null) {
          return;
        }
        long started = System.nanoTime();
        Fault fault = faultFor(request);
        String action = fault == null ? "forwarded" : fault.getClass().getSimpleName();
        if (fault instanceof Fault.Delayed delayed) {
          try {
            Thread.sleep(delayed.millis());
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
          }
          fault = delayed.then();
        }
        if (fault instanceof Fault.Cut) {
          request.readHalfBody(in);
          seen.add(new Seen(request.method, request.path, request.target(), action, started));
          return;
        }
        request.readBody(in);
        if (!(fault == null || fault instanceof Fault.DropResponse)) {
          seen.add(new Seen(request.method, request.path, request.target(), action, started));
        }
        if (fault instanceof Fault.Hang) {
          client.setSoTimeout(120_000);
          while (in.read() >= 0) {
            // hold the connection until the client gives up
          }
          return;
        }
        if (fault instanceof Fault.Answer answer) {
          byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
          out.write(
              ("HTTP/1.1 "
                      + answer.status()
                      + " Injected\r\nContent-Type: "
                      + answer.contentType()
                      + "\r\nContent-Length: "
                      + body.length
                      + "\r\n\r\n")
                  .getBytes(StandardCharsets.ISO_8859_1));
          out.write(body);
          out.flush();
          continue;
        }
        Forwarded response = forward(request);
        if (fault instanceof Fault.DropResponse) {
          seen.add(new Seen(request.method, request.path, request.target(), action, started));
          return;
        }
        out.write(response.bytes());
        out.flush();
        seen.add(
            new Seen(
                request.method,
                request.path,
                request.target(),
                action,
                response.bodyBytes(),
                started,
                System.nanoTime()));
        if (request.closeAfter()) {
          return;
        }
      }
    } catch (IOException e) {
      // the client went away, or the proxy closed
    } finally {
      open.remove(client);
    }
  }

  private Fault faultFor(Request request) {
    for (Rule rule : rules) {
      boolean matches =
          rule.method().equalsIgnoreCase(request.method)
              && rule.path().matcher(request.path).matches()
              && (rule.target() == null
                  || (request.target() != null && request.target().endsWith("." + rule.target())));
      if (matches) {
        int n = matches(rule).incrementAndGet();
        if (n >= rule.from() && n <= rule.to()) {
          return rule.fault();
        }
      }
    }
    return null;
  }

  private AtomicInteger matches(Rule rule) {
    return this.matches.computeIfAbsent(rule, r -> new AtomicInteger());
  }

  /** A whole response, re-framed, and the length of its body. */
  private record Forwarded(byte[] bytes, long bodyBytes) {}

  /** Sends the request upstream on a fresh connection and returns the whole response, re-framed. */
  private Forwarded forward(Request request) throws IOException {
    try (Socket socket = new Socket(upstream.getHost(), upstream.getPort())) {
      socket.setSoTimeout(120_000);
      OutputStream up = socket.getOutputStream();
      ByteArrayOutputStream head = new ByteArrayOutputStream();
      head.write((request.requestLine + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
      for (String[] header : request.headers) {
        String name = header[0].toLowerCase(Locale.ROOT);
        if (!name.equals("connection") && !name.equals("expect")) {
          head.write((header[0] + ": " + header[1] + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        }
      }
      head.write("Connection: close\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
      up.write(head.toByteArray());
      up.write(request.body);
      up.flush();
      InputStream down = new java.io.BufferedInputStream(socket.getInputStream());
      String statusLine;
      List<String[]> headers;
      do {
        statusLine = line(down);
        if (statusLine == null) {
          throw new EOFException("upstream closed without a response");
        }
        headers = headers(down);
      } while (statusLine.split(" ")[1].startsWith("1"));
      int status = Integer.parseInt(statusLine.split(" ")[1]);
      byte[] body;
      boolean noBody = request.method.equals("HEAD") || status == 204 || status == 304;
      if (noBody) {
        body = new byte[0];
      } else if (header(headers, "transfer-encoding") != null) {
        body = chunked(down);
      } else if (header(headers, "content-length") != null) {
        body = down.readNBytes(Integer.parseInt(header(headers, "content-length").strip()));
      } else {
        body = down.readAllBytes();
      }
      ByteArrayOutputStream response = new ByteArrayOutputStream();
      response.write((statusLine + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
      for (String[] header : headers) {
        String name = header[0].toLowerCase(Locale.ROOT);
        if (!name.equals("connection")
            && !name.equals("transfer-encoding")
            && !(name.equals("content-length") && !noBody)) {
          response.write(
              (header[0] + ": " + header[1] + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        }
      }
      if (!noBody) {
        response.write(
            ("Content-Length: " + body.length + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
      }
      response.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
      response.write(body);
      return new Forwarded(response.toByteArray(), body.length);
    }
  }

  /** One request as read from the client. */
  private static final class Request {
    final String requestLine;
    final String method;
    final String path;
    final List<String[]> headers;
    byte[] body = new byte[0];

    private Request(String requestLine, List<String[]> headers) {
      this.requestLine = requestLine;
      String[] parts = requestLine.split(" ");
      this.method = parts[0];
      this.path = parts[1];
      this.headers = headers;
    }

    /** Reads the request line and headers (answering {@code Expect: 100-continue}); null at EOF. */
    static Request read(InputStream in, OutputStream out) throws IOException {
      String requestLine;
      try {
        requestLine = line(in);
      } catch (SocketException e) {
        return null;
      }
      if (requestLine == null || requestLine.isEmpty()) {
        return null;
      }
      Request request = new Request(requestLine, headers(in));
      if ("100-continue".equalsIgnoreCase(header(request.headers, "expect"))) {
        out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
      }
      return request;
    }

    String target() {
      return header(headers, "x-amz-target");
    }

    boolean closeAfter() {
      return "close".equalsIgnoreCase(header(headers, "connection"));
    }

    void readBody(InputStream in) throws IOException {
      if (header(headers, "transfer-encoding") != null) {
        body = rawChunked(in);
      } else if (header(headers, "content-length") != null) {
        body = in.readNBytes(Integer.parseInt(header(headers, "content-length").strip()));
      }
    }

    void readHalfBody(InputStream in) throws IOException {
      String length = header(headers, "content-length");
      if (length != null) {
        in.readNBytes(Integer.parseInt(length.strip()) / 2);
      }
    }
  }

  private static String header(List<String[]> headers, String name) {
    for (String[] header : headers) {
      if (header[0].equalsIgnoreCase(name)) {
        return header[1];
      }
    }
    return null;
  }

  private static List<String[]> headers(InputStream in) throws IOException {
    List<String[]> headers = new ArrayList<>();
    for (String line = line(in); line != null && !line.isEmpty(); line = line(in)) {
      int colon = line.indexOf(':');
      headers.add(
          new String[] {line.substring(0, colon).strip(), line.substring(colon + 1).strip()});
    }
    return headers;
  }

  /** A CRLF-terminated line without its terminator; null at EOF before any byte. */
  private static String line(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) >= 0) {
      if (b == '\n') {
        byte[] bytes = line.toByteArray();
        int length =
            bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
        return new String(bytes, 0, length, StandardCharsets.ISO_8859_1);
      }
      line.write(b);
    }
    return line.size() == 0 ? null : line.toString(StandardCharsets.ISO_8859_1);
  }

  /** A chunked body with its framing, as sent (so the upstream sees the same bytes). */
  private static byte[] rawChunked(InputStream in) throws IOException {
    ByteArrayOutputStream raw = new ByteArrayOutputStream();
    while (true) {
      String size = line(in);
      raw.write((size + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
      int n = Integer.parseInt(size.split(";")[0].strip(), 16);
      if (n == 0) {
        for (String trailer = line(in); trailer != null && !trailer.isEmpty(); trailer = line(in)) {
          raw.write((trailer + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        }
        raw.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
        return raw.toByteArray();
      }
      raw.write(in.readNBytes(n));
      line(in);
      raw.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
    }
  }

  /** A chunked body decoded. */
  private static byte[] chunked(InputStream in) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    while (true) {
      int n = Integer.parseInt(line(in).split(";")[0].strip(), 16);
      if (n == 0) {
        for (String trailer = line(in); trailer != null && !trailer.isEmpty(); trailer = line(in)) {
          // trailers are dropped
        }
        return body.toByteArray();
      }
      body.write(in.readNBytes(n));
      line(in);
    }
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException ignored) {
      // closing anyway
    }
  }
}
