package company.data.compactor.testing;

import company.data.compactor.compact.CompactionOptions;
import company.data.compactor.compact.CompactionPlanner;
import company.data.compactor.compact.CompactionResult;
import company.data.compactor.compact.Layout;
import company.data.compactor.compact.PartitionFilter;
import company.data.compactor.compact.exec.CompactionExecutor;
import company.data.compactor.compact.exec.RewriteSettings;
import company.data.compactor.delta.kernel.KernelDeletionVectorLoader;
import company.data.compactor.delta.kernel.KernelRewriteCommitter;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.Storage;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.OptionalLong;

/** The real compaction (planner, executor, kernel commits) of a snapshot, as tests run it. */
public final class LocalCompactions {

  private LocalCompactions() {}

  /**
   * Options for every partition: files under {@code smallFileBytes} are small, partitions with at
   * least {@code minFiles} of them are compacted into files of {@code targetBytes}; no byte or
   * partition limit.
   */
  public static CompactionOptions options(
      long smallFileBytes,
      int minFiles,
      long targetBytes,
      Layout layout,
      List<String> zOrderColumns) {
    return new CompactionOptions(
        smallFileBytes,
        minFiles,
        targetBytes,
        1L << 30,
        PartitionFilter.all(),
        OptionalLong.empty(),
        layout,
        zOrderColumns);
  }

  /** Bin-packing options (see {@link #options}). */
  public static CompactionOptions binPack(long smallFileBytes, int minFiles, long targetBytes) {
    return options(smallFileBytes, minFiles, targetBytes, Layout.BIN_PACK, List.of());
  }

  /** Plans {@code before} with {@code options} and executes the plan through {@code storage}. */
  public static CompactionResult execute(
      Storage storage, Path scratch, TableSnapshot before, CompactionOptions options) {
    return new CompactionExecutor(
            storage,
            new KernelRewriteCommitter(storage, Clock.systemUTC()),
            new KernelDeletionVectorLoader(storage),
            RewriteSettings.defaults(),
            scratch,
            Clock.systemUTC())
        .execute(CompactionPlanner.plan(before, options), before);
  }
}
