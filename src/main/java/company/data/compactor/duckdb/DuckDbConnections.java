package company.data.compactor.duckdb;

import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.duckdb.DuckDBConnection;
import org.duckdb.DuckDBDriver;

/**
 * Opens in-memory DuckDB connections through the driver class itself, not {@link
 * java.sql.DriverManager}: the manager registers drivers once per JVM and hides them from other
 * class loaders, so a restarted Quarkus application (tests, Lambda SnapStart restores) would find
 * "no suitable driver".
 */
public final class DuckDbConnections {

  /**
   * The driver, created on first use: its class's static initialiser loads the native library and
   * registers a Flight Recorder event (~60 ms on the demo), which the warm-up thread, not the
   * caller of {@link #warmUpInBackground}, should pay.
   */
  private static final class Driver {
    private static final DuckDBDriver INSTANCE = new DuckDBDriver();
  }

  private static final System.Logger LOG = System.getLogger(DuckDbConnections.class.getName());

  /** Whether a database has opened in this process: the library is loaded and initialised. */
  private static final AtomicBoolean OPENED = new AtomicBoolean();

  /** Whether the shutdown hook that closes the database started ahead is registered. */
  private static final AtomicBoolean CLOSES_AT_EXIT = new AtomicBoolean();

  /** How long the shutdown hook waits for a database still starting. */
  static final long CLOSE_WAIT_SECONDS = 5;

  /** The first failure of a database opened ahead (the library's load, say), for the caller. */
  private static final AtomicReference<Throwable> WARM_UP_FAILURE = new AtomicReference<>();

  private DuckDbConnections() {}

  /**
   * The next caller's database, opened ahead on a daemon thread after each {@link #inMemory} call:
   * starting a database takes ~15-20 ms of CPU (its catalog and built-in functions), and a run
   * opens one to seed the demo, one per probe measurement (per pass with a query of the operator's
   * own) and two to compact (the writer's and the verifier's), so the start runs on the other core
   * while the caller reads or writes. Nothing is ever run on it before it is handed out: the caller
   * gets a new, unused database either way. Null when none is being opened.
   */
  private static final AtomicReference<CompletableFuture<Connection>> AHEAD =
      new AtomicReference<>();

  /**
   * A new in-memory database that no one has used; the caller closes it. The one opened ahead when
   * there is one (waiting for it when it is still starting), else one opened now; either way the
   * next one starts opening ahead.
   */
  public static Connection inMemory() throws SQLException {
    Connection connection = takeOrOpen();
    openAhead();
    return connection;
  }

  /**
   * A new database as {@link #inMemory} gives, without starting another ahead: for a caller after
   * which the run needs none (its last probe measurement), so that no database starts beside the
   * caller's work only to be closed unused at exit. The caller closes it.
   */
  public static Connection lastInMemory() throws SQLException {
    return takeOrOpen();
  }

  /**
   * The database opened ahead when there is one (waiting for it while it starts), else a new one.
   */
  private static Connection takeOrOpen() throws SQLException {
    CompletableFuture<Connection> ahead = AHEAD.getAndSet(null);
    Connection connection = ahead == null ? null : taken(ahead);
    return connection == null ? open() : connection;
  }

  /**
   * A new connection to the database {@code database} is connected to: a session of its own
   * (temporary views, settings set without {@code GLOBAL}) over the same catalog, global settings
   * and caches, without starting another database (~20 ms of CPU). The caller closes it.
   */
  public static Connection another(Connection database) throws SQLException {
    return database.unwrap(DuckDBConnection.class).duplicate();
  }

  /** The database opened ahead; null when its start failed (the caller opens one and meets it). */
  private static Connection taken(CompletableFuture<Connection> ahead) {
    try {
      return ahead.join();
    } catch (CompletionException | CancellationException e) {
      return null;
    }
  }

  private static void openAhead() {
    openAhead(DuckDbConnections::open);
  }

  /** What starts a database: {@link #open}, or a test's stand-in that fails. */
  @FunctionalInterface
  interface Opener {
    Connection open() throws SQLException;
  }

  /**
   * Starts a database with {@code opener} on a daemon thread for the next caller, unless one is
   * started ahead already. Package-private for tests, which start it with an opener that fails.
   */
  static void openAhead(Opener opener) {
    CompletableFuture<Connection> next = new CompletableFuture<>();
    if (!AHEAD.compareAndSet(null, next)) {
      return;
    }
    boolean started = false;
    try {
      if (CLOSES_AT_EXIT.compareAndSet(false, true)) {
        Runtime.getRuntime()
            .addShutdownHook(new Thread(DuckDbConnections::closeAhead, "duckdb-close-ahead"));
      }
      Thread thread =
          new Thread(
              () -> {
                try {
                  next.complete(opener.open());
                } catch (SQLException | RuntimeException | LinkageError e) {
                  // Kept for the caller, whose own attempt meets it again and reports why.
                  WARM_UP_FAILURE.compareAndSet(null, e);
                  next.completeExceptionally(e);
                } finally {
                  // Any other error (out of memory, a stack overflow) goes on to the thread's
                  // uncaught-exception handler, but the start is over all the same: the caller
                  // waiting for it opens a database of its own instead of waiting forever. Does
                  // nothing when the start completed above.
                  next.completeExceptionally(
                      new SQLException("the database started ahead stopped before it opened"));
                }
              },
              "duckdb-open-ahead");
      thread.setDaemon(true);
      thread.start();
      started = true;
    } catch (IllegalStateException e) {
      // The JVM is shutting down (no hook can be added): nothing is started ahead.
    } finally {
      if (!started) {
        // Nothing will complete it (no thread was started, or starting one failed): the next
        // caller must not wait for it, and opens its own.
        AHEAD.compareAndSet(next, null);
        next.completeExceptionally(new SQLException("no database was started ahead"));
      }
    }
  }

  /**
   * Closes the database started ahead, once its start has finished (waiting at most {@link
   * #CLOSE_WAIT_SECONDS}): at the process's exit no DuckDB database is left open or starting, so
   * its threads have ended before the library's own teardown runs, as when every caller closed its
   * own.
   */
  static void closeAhead() {
    CompletableFuture<Connection> ahead = AHEAD.getAndSet(null);
    if (ahead == null) {
      return;
    }
    try {
      ahead.get(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS).close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException | SQLException e) {
      // The process is ending: a start that failed or hangs leaves nothing of ours to close.
      LOG.log(Level.DEBUG, "the database started ahead was not closed at exit", e);
    }
  }

  /** Whether a database is started ahead (or starting) for the next caller. */
  public static boolean startedAhead() {
    return AHEAD.get() != null;
  }

  private static Connection open() throws SQLException {
    try {
      Connection connection = Driver.INSTANCE.connect("jdbc:duckdb:", new Properties());
      OPENED.set(true);
      return connection;
    } catch (NoClassDefFoundError e) {
      // The library failed to load earlier, on the opening thread; say why, not only that.
      Throwable first = WARM_UP_FAILURE.get();
      if (first == null) {
        throw e;
      }
      Throwable cause = first;
      while (cause.getCause() != null) {
        cause = cause.getCause();
      }
      throw new SQLException("DuckDB's native library could not be loaded: " + cause, first);
    }
  }

  /**
   * Loads DuckDB's native library and starts a database (kept for the next {@link #inMemory}
   * caller), so the next query does not pay for the load; returns at once when a database has
   * already opened in this process.
   *
   * @throws SQLException when the library cannot be loaded or no database starts
   */
  public static void load() throws SQLException {
    if (OPENED.get()) {
      return;
    }
    openAhead();
    CompletableFuture<Connection> ahead = AHEAD.get();
    if (ahead != null && taken(ahead) != null) {
      return;
    }
    // The start failed, or a caller took the database before it was looked up: open one here,
    // meeting the error if there is one.
    try (Connection ignored = open()) {
      // Opened and closed: the library is loaded and initialised.
    }
  }

  /**
   * Starts a database on a daemon thread, kept for the next {@link #inMemory} caller, unless one is
   * already started ahead: a run that will read with DuckDB calls this first, so the library's load
   * and the start (~0.2 s the first time in a process) overlap the log replay instead of preceding
   * the first query; a later run in the same process (a warm Lambda container, after a run whose
   * last caller took {@link #lastInMemory}) gets its own. A failure here is left to the first real
   * connection, which meets it again and reports it.
   */
  public static void warmUpInBackground() {
    openAhead();
  }
}
