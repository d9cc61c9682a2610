package company.data.compactor.model;

import java.util.List;

/**
 * The one rule for when merging a group of files (a partition, or the table in scope) improves it,
 * shared by the inspector ({@code compaction_required}, {@code compactable_small_files}) and the
 * compaction planner's gate, so the two never disagree. Pure.
 *
 * <ul>
 *   <li>{@link #reachesRatio}: the group's small files reach {@code ratioThresholdPct} of its
 *       files.
 *   <li>{@link #canMerge}: merging its small files yields fewer files: at least two small files,
 *       and their bytes fill fewer target-size outputs than there are small files. One small file,
 *       or two 100 MB files under a 128 MB target, has nothing to merge.
 *   <li>{@link #hasManyDeletedRows}: its deletion vectors delete more than {@link
 *       #DELETED_ROWS_RATIO_THRESHOLD} of its rows; rewriting purges them whatever the sizes.
 * </ul>
 *
 * @param smallFileThresholdBytes files strictly below this are small
 * @param targetFileSizeBytes the size the writer fills each output to
 * @param ratioThresholdPct the small-file ratio gate, percent
 */
public record MergeRule(
    long smallFileThresholdBytes, long targetFileSizeBytes, double ratioThresholdPct) {

  /**
   * Deleted rows (deletion vectors' cardinalities over the files' {@code numRecords}, which still
   * count them) above which a file or partition is fragmented whatever its file sizes: 0.05, the
   * default of Delta Lake's {@code spark.databricks.delta.optimize.maxDeletedRowsRatio}.
   */
  public static final double DELETED_ROWS_RATIO_THRESHOLD = 0.05;

  /** What the rule says about one group of files. */
  public enum Verdict {
    /** The ratio gate passes and merging yields fewer files (or deletes need purging). */
    COMPACTABLE,
    /** The small-file ratio is below the gate. */
    BELOW_GATE,
    /** The ratio gate passes, but merging would not reduce the file count. */
    NOTHING_TO_MERGE;

    /** The report's spelling: {@code compactable}, {@code below_gate}, {@code nothing_to_merge}. */
    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  public MergeRule {
    if (smallFileThresholdBytes <= 0 || targetFileSizeBytes <= 0) {
      throw new IllegalArgumentException("thresholds must be positive");
    }
  }

  /** A file is small when it is strictly below the small-file threshold. */
  public boolean isSmall(DataFile file) {
    return file.sizeBytes() < smallFileThresholdBytes;
  }

  /** Small files among {@code files}. */
  public int smallCount(List<DataFile> files) {
    return (int) files.stream().filter(this::isSmall).count();
  }

  /** The group has a small file and its small-file ratio reaches the gate. */
  public boolean reachesRatio(List<DataFile> files) {
    int small = smallCount(files);
    return small > 0 && 100.0 * small / files.size() >= ratioThresholdPct;
  }

  /**
   * Merging the group's small files yields fewer files: at least two, and fewer target-size outputs
   * than inputs.
   */
  public boolean canMerge(List<DataFile> files) {
    int small = 0;
    long bytes = 0;
    for (DataFile file : files) {
      if (isSmall(file)) {
        small++;
        bytes += file.sizeBytes();
      }
    }
    return small >= 2 && outputsFor(bytes) < small;
  }

  /** Target-size outputs {@code bytes} of input fill (at least one). */
  public long outputsFor(long bytes) {
    return Math.max(1, (bytes + targetFileSizeBytes - 1) / targetFileSizeBytes);
  }

  /**
   * The verdict for one partition of a table whose files in scope are {@code tableFiles}: the table
   * and the partition must both reach the ratio, and the partition must have something to merge; a
   * partition fragmented by deletes is compactable whatever its sizes.
   */
  public Verdict verdict(List<DataFile> partitionFiles, boolean tableReachesRatio) {
    if (hasManyDeletedRows(partitionFiles)) {
      return Verdict.COMPACTABLE;
    }
    if (!tableReachesRatio || !reachesRatio(partitionFiles)) {
      return Verdict.BELOW_GATE;
    }
    return canMerge(partitionFiles) ? Verdict.COMPACTABLE : Verdict.NOTHING_TO_MERGE;
  }

  /**
   * A group of files is fragmented by deletes: its deletion vectors delete more than {@link
   * #DELETED_ROWS_RATIO_THRESHOLD} of its rows (summed over files with a row count), or a file with
   * a deletion vector has no row count.
   */
  public static boolean hasManyDeletedRows(List<DataFile> files) {
    long rows = 0;
    long deleted = 0;
    for (DataFile file : files) {
      if (file.hasDeletionVector()
          && (file.numRecords().isEmpty() || file.deletionVector().isEmpty())) {
        return true;
      }
      rows += file.numRecords().orElse(0);
      deleted += file.deletedRows();
    }
    return deleted > 0 && (rows == 0 || (double) deleted / rows > DELETED_ROWS_RATIO_THRESHOLD);
  }
}
