package company.data.compactor.delta.kernel;

import company.data.compactor.storage.Storage;
import io.delta.kernel.defaults.engine.DefaultEngine;
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
 * for.
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
      return engine.getMetricsReporters();
    }
  }
}
