package company.data.compactor.compact;

import company.data.compactor.model.DataFile;
import java.util.List;

/**
 * The named decisions of the planner, each a predicate that reads as English: {@code
 * gate.isCandidate(file)}, {@code gate.shouldCompact(files)}.
 */
public final class CompactionGate {

  private final CompactionOptions options;

  public CompactionGate(CompactionOptions options) {
    this.options = options;
  }

  /** A file is a candidate when it is below the small-file threshold. */
  public boolean isCandidate(DataFile file) {
    return file.sizeBytes() < options.smallFileThresholdBytes();
  }

  /**
   * A group of files (the table in scope, or one partition) needs compaction when its small-file
   * ratio reaches the threshold and it has at least two small files to merge.
   */
  public boolean shouldCompact(List<DataFile> files) {
    long small = files.stream().filter(this::isCandidate).count();
    return small >= 2 && 100.0 * small / files.size() >= options.ratioThresholdPct();
  }

  /** A bin is worth rewriting only when it merges at least two files. */
  public boolean isWorthRewriting(List<DataFile> bin) {
    return bin.size() >= 2;
  }

  /** Whether a bin of {@code inputBytes} can take one more file of {@code more} bytes. */
  public boolean fits(long inputBytes, long more) {
    return inputBytes + more <= options.maxBinBytes();
  }
}
