package company.data.compactor.probe;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.duckdb.DuckDbConnections;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each pass of the probe reads on a connection no earlier pass has changed: the default query's
 * passes share a database (a count changes nothing), each on a new connection with DuckDB's caches
 * off; any other query's passes each get a new database, since a SELECT can change a whole database
 * (helper-6's ProbeQueryStateIT: {@code enable_logging()} carried into later passes).
 */
class ProbeReadersTest {

  @TempDir Path home;

  private static String answer(Connection c, String query) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(query)) {
      rs.next();
      return rs.getString(1);
    }
  }

  private static final String CACHES =
      "SELECT current_setting('enable_external_file_cache') || ','"
          + " || current_setting('parquet_metadata_cache')";

  private static final String VIEWS = "SELECT count(*) FROM duckdb_views() WHERE NOT internal";

  private static final String LOGS = "SELECT count(*) FROM duckdb_logs()";

  @Test
  void theDefaultQuery_sharesADatabase_eachPassOnANewConnection_cachesOff() throws Exception {
    try (ProbeReaders readers = ProbeReaders.forQuery(ProbeSettings.DEFAULT_QUERY, home, false)) {
      assertThat(readers.shared()).isTrue();
      try (Connection first = readers.next();
          Statement s = first.createStatement()) {
        s.execute("CREATE TEMP VIEW t AS SELECT 1 AS x");
        assertThat(answer(first, VIEWS)).isEqualTo("1");
        assertThat(answer(first, CACHES)).isEqualTo("false,false");
        // What a query that changes the database would leave behind: why only the default shares.
        answer(first, "SELECT count(*) FROM enable_logging()");
      }
      try (Connection second = readers.next()) {
        assertThat(answer(second, VIEWS)).as("the earlier pass's view is gone").isEqualTo("0");
        assertThat(answer(second, CACHES)).isEqualTo("false,false");
        assertThat(Long.parseLong(answer(second, LOGS)))
            .as("one database: its log was turned on by the earlier pass")
            .isPositive();
      }
    }
  }

  @Test
  void anyOtherQuery_getsANewDatabasePerPass_cachesOff() throws Exception {
    try (ProbeReaders readers = ProbeReaders.forQuery("SELECT sum(amount) FROM t", home, false)) {
      assertThat(readers.shared()).isFalse();
      try (Connection first = readers.next()) {
        assertThat(answer(first, CACHES)).isEqualTo("false,false");
        answer(first, "SELECT count(*) FROM enable_logging()");
        answer(first, "SELECT 42");
        assertThat(Long.parseLong(answer(first, LOGS)))
            .as("logged in its own database")
            .isPositive();
      }
      try (Connection second = readers.next()) {
        assertThat(answer(second, LOGS)).as("a new database: nothing logged").isEqualTo("0");
        assertThat(answer(second, CACHES)).isEqualTo("false,false");
        assertThat(answer(second, "SELECT current_setting('home_directory')"))
            .isEqualTo(home.toString());
      }
    }
  }

  @Test
  void theRunsLastMeasurement_startsNoDatabaseAheadForANextCaller() throws Exception {
    DuckDbConnections.warmUpInBackground();
    assertThat(DuckDbConnections.startedAhead()).isTrue();
    try (ProbeReaders readers = ProbeReaders.forQuery(ProbeSettings.DEFAULT_QUERY, home, true);
        Connection pass = readers.next()) {
      assertThat(answer(pass, CACHES)).isEqualTo("false,false");
      assertThat(DuckDbConnections.startedAhead()).as("none started beside the passes").isFalse();
    }
    try (ProbeReaders readers = ProbeReaders.forQuery(ProbeSettings.DEFAULT_QUERY, home, false);
        Connection pass = readers.next()) {
      assertThat(answer(pass, VIEWS)).isEqualTo("0");
      assertThat(DuckDbConnections.startedAhead()).as("any other measurement's").isTrue();
    }
  }
}
