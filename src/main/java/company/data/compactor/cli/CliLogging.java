package company.data.compactor.cli;

import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.logging.ConsoleHandler;
import java.util.logging.Formatter;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * One-line progress logs on stderr for the command line: the compactor's own lines at INFO,
 * libraries at WARNING. {@code COMPACTOR_LOG_LEVEL} (e.g. FINE) raises the compactor's level.
 */
final class CliLogging {

  private CliLogging() {}

  static void configure() {
    Logger root = Logger.getLogger("");
    for (var handler : root.getHandlers()) {
      root.removeHandler(handler);
    }
    ConsoleHandler handler = new ConsoleHandler();
    handler.setLevel(Level.ALL);
    handler.setFormatter(
        new Formatter() {
          private final DateTimeFormatter time = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

          @Override
          public String format(LogRecord record) {
            return time.format(LocalTime.now())
                + " "
                + record.getLevel().getName()
                + " "
                + shortName(record.getLoggerName())
                + ": "
                + formatMessage(record)
                + System.lineSeparator();
          }
        });
    root.addHandler(handler);
    root.setLevel(Level.WARNING);
    String level = System.getenv().getOrDefault("COMPACTOR_LOG_LEVEL", "INFO");
    Logger.getLogger("company.data.compactor").setLevel(Level.parse(level));
    // Kernel warns on every load of a table that has no checkpoint yet; that is normal here.
    Logger.getLogger("io.delta.kernel.internal.snapshot.SnapshotManager").setLevel(Level.SEVERE);
    // Kernel warns with a stack trace each time a commit rebases over another commit, including
    // the compactor's own earlier partition commits; the outcome is what we report.
    Logger.getLogger("io.delta.kernel.internal.TransactionImpl").setLevel(Level.SEVERE);
  }

  private static String shortName(String name) {
    return name == null ? "" : name.substring(name.lastIndexOf('.') + 1);
  }
}
