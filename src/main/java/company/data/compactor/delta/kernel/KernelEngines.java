package company.data.compactor.delta.kernel;

import company.data.compactor.storage.Storage;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import java.util.Map;

/** Builds kernel engines over the storage port ({@code DefaultEngine.create(FileIO)}). */
final class KernelEngines {

  /** Recorded as {@code engineInfo} in the commits we write. */
  static final String ENGINE_INFO = "delta-compactor/0.1.0";

  private KernelEngines() {}

  static Engine over(Storage storage) {
    return DefaultEngine.create(new StorageFileIO(storage, Map.of()));
  }
}
