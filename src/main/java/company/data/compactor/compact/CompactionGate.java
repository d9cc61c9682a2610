package company.data.compactor.compact;

import company.data.compactor.model.DataFile;
import company.data.compactor.model.MergeRule;
import java.util.List;

/**
 * The named decisions of the planner, each a predicate that reads as English: {@code
 * gate.isCandidate(file)}, {@code gate.shouldCompact(files)}.
 */
public final class CompactionGate {

  private final CompactionOptions options;
  private final MergeRule rule;

  public CompactionGate(CompactionOptions options) {
    this.options = options;
    this.rule = rule(options);
  }

  /** The merge rule the inspector shares with this gate, under {@code options}. */
  public static MergeRule rule(CompactionOptions options) {
    return new MergeRule(
        options.smallFileThresholdBytes(),
        options.targetFileSizeBytes(),
        options.ratioThresholdPct());
  }

  /** The shared rule this gate decides by. */
  public MergeRule rule() {
    return rule;
  }

  /**
   * Deleted rows (deletion vectors' cardinalities over the files' {@code numRecords}, which still
   * count them) above which a file or partition is fragmented whatever its file sizes: 0.05, the
   * default of Delta Lake's {@code spark.databricks.delta.optimize.maxDeletedRowsRatio}, above
   * which its {@code OPTIMIZE} rewrites a file to purge its deletion vector.
   */
  public static final double DELETED_ROWS_RATIO_THRESHOLD = MergeRule.DELETED_ROWS_RATIO_THRESHOLD;

  /**
   * A file is a candidate when it is below the small-file threshold, or when its deletion vector
   * deletes too many of its rows ({@link #hasManyDeletedRows(DataFile)}).
   */
  public boolean isCandidate(DataFile file) {
    return isSmall(file) || hasManyDeletedRows(file);
  }

  /** A file is small when it is below the small-file threshold. */
  public boolean isSmall(DataFile file) {
    return rule.isSmall(file);
  }

  /**
   * A file's deletion vector deletes more than {@link #DELETED_ROWS_RATIO_THRESHOLD} of its rows; a
   * file with a deletion vector and no row count in its stats counts too (as in Delta Lake: its
   * rewrite also gives it stats).
   */
  public boolean hasManyDeletedRows(DataFile file) {
    if (!file.hasDeletionVector()) {
      return false;
    }
    if (file.numRecords().isEmpty() || file.deletionVector().isEmpty()) {
      return true;
    }
    long rows = file.numRecords().getAsLong();
    return rows == 0 || (double) file.deletedRows() / rows > DELETED_ROWS_RATIO_THRESHOLD;
  }

  /**
   * A group of files (a partition) is fragmented by deletes: its deletion vectors delete more than
   * {@link #DELETED_ROWS_RATIO_THRESHOLD} of its rows (summed over files with a row count), or a
   * file with a deletion vector has no row count.
   */
  public boolean hasManyDeletedRows(List<DataFile> files) {
    return MergeRule.hasManyDeletedRows(files);
  }

  /**
   * A group of files (the table in scope, or one partition) needs compaction for its small files
   * when its small-file ratio reaches the threshold and merging them yields fewer files ({@link
   * MergeRule#canMerge}).
   */
  public boolean shouldCompact(List<DataFile> files) {
    return rule.reachesRatio(files) && rule.canMerge(files);
  }

  /**
   * A bin is worth rewriting when it merges at least two files, or when its one file has a deletion
   * vector (rewriting it alone purges the vector, as Delta Lake's {@code OPTIMIZE} does).
   */
  public boolean isWorthRewriting(List<DataFile> bin) {
    return bin.size() >= 2 || (bin.size() == 1 && bin.get(0).hasDeletionVector());
  }

  /** Whether a bin of {@code inputBytes} can take one more file of {@code more} bytes. */
  public boolean fits(long inputBytes, long more) {
    return inputBytes + more <= options.maxBinBytes();
  }
}
