package company.data.compactor.report;

/**
 * What the run's sweep removed of earlier, killed runs (the report's {@code sweep} object).
 *
 * @param status {@code done}, or {@code failed} with {@code error} (the run went on)
 * @param scratchCutoff ISO-8601 time: abandoned scratch directories last modified before it were
 *     removed (the lease TTL before the run)
 * @param scratchDirsSwept abandoned scratch directories (rewrite scratch, S3 upload buffers)
 *     deleted from the work directory
 * @param scratchBytesSwept bytes of the files in them
 * @param scratchDirsInUse scratch directories old enough but locked by a live run, kept
 * @param scratchDirsKeptYoung scratch directories younger than {@code scratch_cutoff}, kept
 * @param temporaryObjectCutoff ISO-8601 time: our temporary objects in the table last modified
 *     before it were removed (168 hours before the run)
 * @param temporaryObjectsSwept our temporary objects ({@code .compactor-tmp-*}) deleted from the
 *     table
 * @param temporaryObjectBytesSwept their bytes
 * @param temporaryObjectsKeptYoung temporary objects younger than {@code temporary_object_cutoff},
 *     kept
 * @param error why the sweep failed, null when it did not
 */
public record SweepReport(
    String status,
    String scratchCutoff,
    int scratchDirsSwept,
    long scratchBytesSwept,
    int scratchDirsInUse,
    int scratchDirsKeptYoung,
    String temporaryObjectCutoff,
    int temporaryObjectsSwept,
    long temporaryObjectBytesSwept,
    int temporaryObjectsKeptYoung,
    String error) {}
