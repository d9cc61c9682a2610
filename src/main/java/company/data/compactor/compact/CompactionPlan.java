package company.data.compactor.compact;

import java.util.List;

/**
 * An immutable plan: which bins to rewrite now, which wait for a later run, and why each partition
 * was or was not touched. A dry run returns it as is.
 *
 * @param readVersion the table version the plan was made from; commits are based on it
 * @param options the options it was made with
 * @param tableGatePassed whether the table in scope reached the small-file ratio gate
 * @param bins bins to rewrite in this run, in order
 * @param deferred bins left for later runs by {@code max_bytes_per_run}
 * @param partitions the decision for every partition in the table
 * @param deletionVectorsToPurge files in the bins (now and deferred) that carry a deletion vector:
 *     their deleted rows are dropped and the vector purged by the rewrite
 */
public record CompactionPlan(
    long readVersion,
    CompactionOptions options,
    boolean tableGatePassed,
    List<Bin> bins,
    List<Bin> deferred,
    List<PartitionDecision> partitions,
    int deletionVectorsToPurge) {

  public CompactionPlan {
    bins = List.copyOf(bins);
    deferred = List.copyOf(deferred);
    partitions = List.copyOf(partitions);
  }

  /** Whether there is nothing to rewrite now. */
  public boolean isEmpty() {
    return bins.isEmpty();
  }

  /** Files this run would remove. */
  public int filesToRewrite() {
    return bins.stream().mapToInt(b -> b.files().size()).sum();
  }

  /** Input bytes this run would rewrite. */
  public long bytesToRewrite() {
    return bins.stream().mapToLong(Bin::inputBytes).sum();
  }

  /** Input bytes left for later runs. */
  public long bytesDeferred() {
    return deferred.stream().mapToLong(Bin::inputBytes).sum();
  }
}
