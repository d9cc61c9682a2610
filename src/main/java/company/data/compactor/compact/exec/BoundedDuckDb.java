package company.data.compactor.compact.exec;

import company.data.compactor.duckdb.DuckDbConnections;
import company.data.compactor.duckdb.Sql;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/** In-memory DuckDB databases bounded by {@link RewriteSettings}, one per role of a rewrite. */
final class BoundedDuckDb {

  private BoundedDuckDb() {}

  /**
   * A new database whose memory and threads follow {@code settings}, spilling to and homed in
   * {@code scratch/<name>-temp} and {@code scratch/<name>-home} (Lambda has no HOME), reading naive
   * timestamps (e.g. Spark's INT96) as UTC instants, then set up by {@code settingsOfTheRole} (the
   * rewriter's insertion order, say). A database whose set-up fails is closed. The caller closes
   * it.
   */
  static Connection open(
      RewriteSettings settings, Path scratch, String name, String... settingsOfTheRole)
      throws SQLException, IOException {
    Path temp = Files.createDirectories(scratch.resolve(name + "-temp"));
    Path home = Files.createDirectories(scratch.resolve(name + "-home"));
    Connection connection = DuckDbConnections.inMemory();
    try (Statement s = connection.createStatement()) {
      s.execute("SET home_directory = " + Sql.literal(home.toString()));
      s.execute("SET temp_directory = " + Sql.literal(temp.toString()));
      s.execute("SET memory_limit = " + Sql.literal(settings.memoryLimit()));
      s.execute("SET threads = " + settings.threads());
      s.execute("SET TimeZone = 'UTC'");
      for (String setting : settingsOfTheRole) {
        s.execute(setting);
      }
    } catch (SQLException | RuntimeException e) {
      try {
        connection.close();
      } catch (SQLException closing) {
        e.addSuppressed(closing);
      }
      throw e;
    }
    return connection;
  }
}
