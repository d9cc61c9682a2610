package company.data.compactor.delta.kernel;

import company.data.compactor.storage.Storage;
import io.delta.kernel.TableManager;
import io.delta.kernel.defaults.engine.DefaultEngine;
import java.util.Map;

/** Test helper: whether kernel can load one version of a table through a storage port. */
public final class KernelVersions {

  private KernelVersions() {}

  /** Whether kernel loads {@code version} of the table at {@code uri} on {@code storage}. */
  public static boolean readable(Storage storage, String uri, long version) {
    try {
      return TableManager.loadSnapshot(uri)
              .atVersion(version)
              .build(DefaultEngine.create(new StorageFileIO(storage, Map.of())))
              .getVersion()
          == version;
    } catch (RuntimeException e) {
      return false;
    }
  }
}
