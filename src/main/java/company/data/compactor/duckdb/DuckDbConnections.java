package company.data.compactor.duckdb;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.duckdb.DuckDBDriver;

/**
 * Opens in-memory DuckDB connections through the driver class itself, not {@link
 * java.sql.DriverManager}: the manager registers drivers once per JVM and hides them from other
 * class loaders, so a restarted Quarkus application (tests, Lambda SnapStart restores) would find
 * "no suitable driver".
 */
public final class DuckDbConnections {

  private static final DuckDBDriver DRIVER = new DuckDBDriver();

  private static final AtomicBoolean WARMED = new AtomicBoolean();

  private static final AtomicReference<Throwable> WARM_UP_FAILURE = new AtomicReference<>();

  private DuckDbConnections() {}

  /** A new in-memory database; the caller closes it. */
  public static Connection inMemory() throws SQLException {
    try {
      return DRIVER.connect("jdbc:duckdb:", new Properties());
    } catch (NoClassDefFoundError e) {
      // The library failed to load earlier, on the warm-up thread; say why, not only that.
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
   * Loads DuckDB's native library and starts one database (a no-op cost once the library is
   * loaded), so the next query does not pay for the load.
   */
  public static void load() throws SQLException {
    try (Connection ignored = inMemory()) {
      // Opened and closed: the library is loaded and initialised.
    }
  }

  /**
   * {@link #load} once per process, on a daemon thread: a run that will read with DuckDB calls this
   * first, so the load (~0.2 s) overlaps the log replay instead of preceding the first query. A
   * failure here is left to the first real connection, which meets it again and reports it.
   */
  public static void warmUpInBackground() {
    if (!WARMED.compareAndSet(false, true)) {
      return;
    }
    Thread warmUp =
        new Thread(
            () -> {
              try {
                load();
              } catch (Throwable e) {
                // Kept for the first real connection, which meets it again and reports it.
                WARM_UP_FAILURE.set(e);
              }
            },
            "duckdb-warm-up");
    warmUp.setDaemon(true);
    warmUp.start();
  }
}
