package company.data.compactor.report;

import java.util.Map;

/**
 * Fragmentation of one partition, as reported.
 *
 * @param partition label {@code col=value[/col=value]} or {@code unpartitioned}
 * @param partitionValues raw values, a NULL partition as null
 * @param fileCount active files
 * @param smallFilesCount files below the small-file threshold
 * @param smallFileRatioPct small files as a percentage of files
 * @param avgFileSizeMb mean file size in MB
 * @param totalSizeMb total size in MB
 * @param totalBytes total size in bytes
 * @param deletedRows rows the partition's deletion vectors delete
 * @param deletedRowsRatio deleted rows over the rows its files hold, null when some file has no row
 *     count
 * @param compactableSmallFiles small files that merging would improve (all of the partition's small
 *     files when {@code merge_verdict} is {@code compactable}, else 0)
 * @param mergeVerdict {@code compactable}, {@code below_gate} (small-file ratio under the gate) or
 *     {@code nothing_to_merge} (the ratio passes, but merging would not reduce the file count: one
 *     small file, or small files that fill as many target-size outputs)
 */
public record PartitionReport(
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
    String mergeVerdict) {}
