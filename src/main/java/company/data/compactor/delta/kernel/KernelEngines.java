package company.data.compactor.delta.kernel;

import company.data.compactor.storage.Storage;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.defaults.engine.LoggingMetricsReporter;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.engine.ExpressionHandler;
import io.delta.kernel.engine.FileSystemClient;
import io.delta.kernel.engine.JsonHandler;
import io.delta.kernel.engine.MetricsReporter;
import io.delta.kernel.engine.ParquetHandler;
import java.util.List;
import java.util.Map;

/**
 * Builds kernel engines over the storage port: kernel's {@code DefaultEngine.create(FileIO)} with
 * its JSON reader replaced by {@link PrunedJsonHandler}, which builds only the fields kernel asks
 * for, and its logging metrics reporter left out while its log line would not be written ({@link
 * #reporters}).
 */
final class KernelEngines {

  /** Recorded as {@code engineInfo} in the commits we write. */
  static final String ENGINE_INFO = "delta-compactor/0.1.0";

  private KernelEngines() {}

  static Engine over(Storage storage) {
    StorageFileIO io = new StorageFileIO(storage, Map.of());
    DefaultEngine engine = DefaultEngine.create(io);
    return withJson(engine, new PrunedJsonHandler(io, engine.getJsonHandler()));
  }

  /** {@code engine} with {@code json} as its JSON handler. */
  static Engine withJson(Engine engine, JsonHandler json) {
    return new WithJson(engine, json);
  }

  private record WithJson(Engine engine, JsonHandler json) implements Engine {
    @Override
    public ExpressionHandler getExpressionHandler() {
      return engine.getExpressionHandler();
    }

    @Override
    public JsonHandler getJsonHandler() {
      return json;
    }

    @Override
    public FileSystemClient getFileSystemClient() {
      return engine.getFileSystemClient();
    }

    @Override
    public ParquetHandler getParquetHandler() {
      return engine.getParquetHandler();
    }

    @Override
    public List<MetricsReporter> getMetricsReporters() {
      return reporters(engine.getMetricsReporters(), REPORTS.isInfoEnabled());
    }
  }

  /** The logger kernel's {@link LoggingMetricsReporter} writes each report to, at INFO. */
  private static final org.slf4j.Logger REPORTS =
      org.slf4j.LoggerFactory.getLogger(LoggingMetricsReporter.class);

  /**
   * {@code reporters} without kernel's {@link LoggingMetricsReporter} unless its INFO line is
   * written ({@code logged}). That reporter turns each report into JSON before it asks the log
   * level (with a Jackson of kernel's own, built on first use), for every snapshot load, scan and
   * commit: the command line, whose log shows kernel's warnings only, paid ~0.19 s of the demo's
   * 2.6 s for lines nobody wrote. Where the line is written (Lambda logs at INFO), nothing changes;
   * any other reporter is always kept.
   */
  static List<MetricsReporter> reporters(List<MetricsReporter> reporters, boolean logged) {
    return logged
        ? reporters
        : reporters.stream().filter(r -> !(r instanceof LoggingMetricsReporter)).toList();
  }
}
