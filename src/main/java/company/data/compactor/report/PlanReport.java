package company.data.compactor.report;

import java.util.List;

/**
 * The compaction plan as reported (also what {@code bin/compactor plan} prints).
 *
 * @param readVersion the version planned from
 * @param layout {@code bin_pack} or {@code z_order}
 * @param partitionFilter the filter text, empty for every partition
 * @param tableGatePassed whether the small-file ratio in scope reached the gate
 * @param bins bins to rewrite in this run
 * @param filesToRewrite their input files
 * @param bytesToRewrite their input bytes
 * @param binsDeferred bins left for later runs by {@code max_bytes_per_run}
 * @param bytesDeferred their input bytes
 * @param partitions the decision per partition
 * @param filesWithDeletionVectors files left out of bins because they carry a deletion vector:
 *     always 0 since the rewrite applies deletion vectors (kept for readers of older reports, when
 *     such files were left out)
 * @param deletionVectorsToPurge files in the bins (now and deferred) that carry a deletion vector:
 *     the rewrite drops the rows it deletes, and the outputs carry none
 */
public record PlanReport(
    long readVersion,
    String layout,
    String partitionFilter,
    boolean tableGatePassed,
    int bins,
    int filesToRewrite,
    long bytesToRewrite,
    int binsDeferred,
    long bytesDeferred,
    List<PlanPartitionReport> partitions,
    int filesWithDeletionVectors,
    int deletionVectorsToPurge) {

  public PlanReport {
    partitions = List.copyOf(partitions);
  }
}
