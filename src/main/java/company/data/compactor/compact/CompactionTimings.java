package company.data.compactor.compact;

/**
 * Where a compaction's time went, in nanoseconds, summed over bins and partitions. Transfers that
 * overlap the rewrite (object stores: the next bin's download, the previous bin's upload) count the
 * time they took on their own threads, so the parts may add up to more than the compaction's wall
 * time.
 *
 * @param downloadNanos fetching inputs and loading their deletion vectors
 * @param rewriteNanos rewriting with DuckDB
 * @param verifyNanos measuring both sides and comparing them
 * @param uploadNanos uploading verified outputs
 * @param commitNanos the lease check and the partitions' commits
 */
public record CompactionTimings(
    long downloadNanos, long rewriteNanos, long verifyNanos, long uploadNanos, long commitNanos) {

  /** Nothing timed. */
  public static final CompactionTimings NONE = new CompactionTimings(0, 0, 0, 0, 0);
}
