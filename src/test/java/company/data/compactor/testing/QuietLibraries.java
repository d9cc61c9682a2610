package company.data.compactor.testing;

import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Keeps library chatter (kernel INFO metrics, Hadoop, Parquet) out of the test output so the
 * compactor's own lines and failures stay readable. Registered for every test class by
 * auto-detection (src/test/resources/junit-platform.properties).
 */
public final class QuietLibraries implements BeforeAllCallback {

  // Strong references: java.util.logging forgets the level of a logger nobody holds.
  private static final List<Logger> QUIET =
      List.of(
          Logger.getLogger("io.delta.kernel"),
          Logger.getLogger("org.apache.hadoop"),
          Logger.getLogger("org.apache.parquet"));

  @Override
  public void beforeAll(ExtensionContext context) {
    QUIET.forEach(logger -> logger.setLevel(Level.SEVERE));
  }
}
