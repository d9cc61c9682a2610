package company.data.compactor.inspect;

import company.data.compactor.model.MergeRule;
import java.util.Map;

/**
 * Fragmentation of one partition.
 *
 * @param partition label {@code col=value[/col=value]} or {@code unpartitioned}
 * @param partitionValues the raw values (a SQL NULL partition is a null value)
 * @param fileCount active files
 * @param smallFilesCount files below the small-file threshold
 * @param smallFileRatioPct small files as a percentage of files, 2 decimals
 * @param avgFileSizeMb mean file size, MB, 4 decimals
 * @param totalSizeMb sum of file sizes, MB, 4 decimals
 * @param totalBytes sum of file sizes, bytes
 * @param deletedRows rows the files' deletion vectors delete (their cardinalities, as logged)
 * @param deletedRowsRatio deleted rows over the rows the files hold ({@code numRecords}, which
 *     still counts them), 4 decimals; null when some file has no row count
 * @param compactableSmallFiles small files merging would improve: all of them when the verdict is
 *     compactable, else 0
 * @param verdict what the shared merge rule says of the partition
 */
public record PartitionHealth(
    String partition,
    Map<String, String> partitionValues,
    int fileCount,
    int smallFilesCount,
    double smallFileRatioPct,
    double avgFileSizeMb,
    double totalSizeMb,
    long totalBytes,
    long deletedRows,
    Double deletedRowsRatio,
    int compactableSmallFiles,
    MergeRule.Verdict verdict) {}
