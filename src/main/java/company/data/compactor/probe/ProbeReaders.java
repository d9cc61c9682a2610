package company.data.compactor.probe;

import company.data.compactor.duckdb.DuckDbConnections;
import company.data.compactor.duckdb.Sql;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The DuckDB connections a measurement's passes read on, each one as a new reader's: no pass sees
 * what an earlier one cached or changed. DuckDB's caches of file data and Parquet metadata are off
 * in every database. For the default query (a count: it changes nothing) the passes share one
 * database, each on a new connection with its own temporary view, which saves a database's start
 * and close (~20 ms of CPU) per pass. Any other query gets a new database per pass: it is operator
 * configuration, and a SELECT can call a table function that changes the whole database for the
 * passes after it ({@code enable_logging()} turns on its log).
 */
abstract class ProbeReaders implements AutoCloseable {

  /**
   * The readers for {@code query}'s passes; DuckDB's home is {@code home}. {@code last}: the run
   * needs no DuckDB database after this measurement, so the default query's shared database starts
   * none ahead for a next caller ({@link DuckDbConnections#lastInMemory}); a query of the
   * operator's own still opens one per pass, each started ahead of its pass. The caller closes it.
   */
  static ProbeReaders forQuery(String query, Path home, boolean last) throws SQLException {
    if (!ProbeSettings.DEFAULT_QUERY.equals(query)) {
      return new Separate(home);
    }
    return new Shared(
        configured(last ? DuckDbConnections.lastInMemory() : DuckDbConnections.inMemory(), home));
  }

  /** Whether the passes share one database (the default query's). */
  abstract boolean shared();

  /** A connection no earlier pass has used; the caller closes it. */
  abstract Connection next() throws SQLException;

  @Override
  public abstract void close() throws SQLException;

  private static Connection configured(Connection database, Path home) throws SQLException {
    try (Statement s = database.createStatement()) {
      s.execute("SET GLOBAL home_directory = " + Sql.literal(home.toString()));
      s.execute("SET GLOBAL enable_external_file_cache = false");
      s.execute("SET GLOBAL parquet_metadata_cache = false");
    } catch (SQLException e) {
      database.close();
      throw e;
    }
    return database;
  }

  private static final class Shared extends ProbeReaders {
    private final Connection database;

    Shared(Connection database) {
      this.database = database;
    }

    @Override
    boolean shared() {
      return true;
    }

    @Override
    Connection next() throws SQLException {
      return DuckDbConnections.another(database);
    }

    @Override
    public void close() throws SQLException {
      database.close();
    }
  }

  private static final class Separate extends ProbeReaders {
    private final Path home;

    Separate(Path home) {
      this.home = home;
    }

    @Override
    boolean shared() {
      return false;
    }

    @Override
    Connection next() throws SQLException {
      return configured(DuckDbConnections.inMemory(), home);
    }

    @Override
    public void close() {
      // Each pass closed its own database.
    }
  }
}
