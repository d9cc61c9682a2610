package company.data.compactor.duckdb;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;
import org.duckdb.DuckDBDriver;

/**
 * Opens in-memory DuckDB connections through the driver class itself, not {@link
 * java.sql.DriverManager}: the manager registers drivers once per JVM and hides them from other
 * class loaders, so a restarted Quarkus application (tests, Lambda SnapStart restores) would find
 * "no suitable driver".
 */
public final class DuckDbConnections {

  private static final DuckDBDriver DRIVER = new DuckDBDriver();

  private DuckDbConnections() {}

  /** A new in-memory database; the caller closes it. */
  public static Connection inMemory() throws SQLException {
    return DRIVER.connect("jdbc:duckdb:", new Properties());
  }
}
