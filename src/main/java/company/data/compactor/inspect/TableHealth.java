package company.data.compactor.inspect;

import java.util.List;

/**
 * Fragmentation of a whole table version, and whether it passes the compaction gate.
 *
 * @param tableVersion the version inspected
 * @param partitions per-partition figures, ordered by label
 * @param totalFiles active files
 * @param totalSmallFiles active files below the small-file threshold
 * @param smallFileRatioPct small files as a percentage of all files, 2 decimals (0 when empty)
 * @param avgFileSizeMb mean file size, MB, 4 decimals
 * @param totalSizeMb sum of file sizes, MB, 4 decimals
 * @param totalBytes sum of file sizes, bytes
 * @param totalRows rows counted from file stats; null when some file has no row count
 * @param filesWithoutStats files whose stats carry no row count
 * @param compactionRequired whether some partition is compactable under the shared merge rule: the
 *     ratios reach the gate and merging yields fewer files (or deletes need purging)
 * @param deletedRows rows the files' deletion vectors delete (their cardinalities, as logged)
 * @param deletedRowsRatio deleted rows over the rows the files hold ({@code numRecords}, which
 *     still counts them), 4 decimals; null when some file has no row count
 * @param compactableSmallFiles small files in compactable partitions
 * @param ratioReachesGate whether the overall small-file ratio reaches the gate (what {@code
 *     compactionRequired} meant before merging had to improve something)
 */
public record TableHealth(
    long tableVersion,
    List<PartitionHealth> partitions,
    int totalFiles,
    int totalSmallFiles,
    double smallFileRatioPct,
    double avgFileSizeMb,
    double totalSizeMb,
    long totalBytes,
    Long totalRows,
    int filesWithoutStats,
    boolean compactionRequired,
    long deletedRows,
    Double deletedRowsRatio,
    int compactableSmallFiles,
    boolean ratioReachesGate) {

  public TableHealth {
    partitions = List.copyOf(partitions);
  }
}
