package company.data.compactor.inspect;

import company.data.compactor.model.ByteSizes;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.MergeRule;
import company.data.compactor.model.PartitionValues;
import company.data.compactor.model.TableSnapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Measures small-file fragmentation of a snapshot. Pure: no I/O. */
public final class TableInspector {

  private TableInspector() {}

  /**
   * Inspects every active file of {@code snapshot}, with a target file size equal to the small-file
   * threshold (the defaults: both 128 MB).
   *
   * @param smallFileThresholdBytes files strictly below this size are small
   * @param compactionRatioThresholdPct the small-file ratio gate
   */
  public static TableHealth inspect(
      TableSnapshot snapshot, long smallFileThresholdBytes, double compactionRatioThresholdPct) {
    return inspect(
        snapshot,
        new MergeRule(
            smallFileThresholdBytes, smallFileThresholdBytes, compactionRatioThresholdPct));
  }

  /**
   * Inspects every active file of {@code snapshot}. Compaction is required when {@code rule} finds
   * a partition compactable ({@link MergeRule#verdict}: the table's and the partition's small-file
   * ratios reach the gate and merging yields fewer files, or deletes need purging), the same rule
   * the compaction planner decides by.
   */
  public static TableHealth inspect(TableSnapshot snapshot, MergeRule rule) {
    long smallFileThresholdBytes = rule.smallFileThresholdBytes();
    // Grouped by value first, then the (few) partitions sorted: a sorted map would compare labels,
    // which are built on each call, about 20 times per file (100,000 files: 2 million labels).
    Map<PartitionValues, List<DataFile>> grouped = new HashMap<>();
    for (DataFile file : snapshot.activeFiles()) {
      grouped.computeIfAbsent(file.partition(), k -> new ArrayList<>()).add(file);
    }
    Map<PartitionValues, List<DataFile>> byPartition = new TreeMap<>(PartitionValues.ORDER);
    byPartition.putAll(grouped);
    boolean tableReachesRatio = rule.reachesRatio(snapshot.activeFiles());
    int compactableSmall = 0;
    boolean anyCompactable = false;
    List<PartitionHealth> partitions = new ArrayList<>();
    int totalSmall = 0;
    long totalBytes = 0;
    long totalRows = 0;
    int withoutStats = 0;
    long totalDeleted = 0;
    long totalPhysical = 0;
    boolean physicalKnown = true;
    for (Map.Entry<PartitionValues, List<DataFile>> entry : byPartition.entrySet()) {
      List<DataFile> files = entry.getValue();
      int small = 0;
      long bytes = 0;
      long deleted = 0;
      long physical = 0;
      boolean known = true;
      for (DataFile file : files) {
        deleted += file.deletedRows();
        if (file.numRecords().isPresent()) {
          physical += file.numRecords().getAsLong();
        } else {
          known = false;
        }
        if (isSmall(file, smallFileThresholdBytes)) {
          small++;
        }
        bytes += file.sizeBytes();
        // Rows readers see: a deletion vector's rows are gone although the stats still count them.
        if (file.liveRecords().isPresent()) {
          totalRows += file.liveRecords().getAsLong();
        } else {
          withoutStats++;
        }
      }
      totalSmall += small;
      totalBytes += bytes;
      totalDeleted += deleted;
      totalPhysical += physical;
      physicalKnown &= known;
      MergeRule.Verdict verdict = rule.verdict(files, tableReachesRatio);
      if (verdict == MergeRule.Verdict.COMPACTABLE) {
        anyCompactable = true;
        compactableSmall += small;
      }
      partitions.add(
          new PartitionHealth(
              entry.getKey().label(),
              entry.getKey().values(),
              files.size(),
              small,
              ratioPct(small, files.size()),
              mb(bytes / (double) files.size()),
              mb(bytes),
              bytes,
              deleted,
              known ? deletedRatio(deleted, physical) : null,
              verdict == MergeRule.Verdict.COMPACTABLE ? small : 0,
              verdict));
    }
    int totalFiles = snapshot.activeFiles().size();
    double ratio = ratioPct(totalSmall, totalFiles);
    return new TableHealth(
        snapshot.version(),
        partitions,
        totalFiles,
        totalSmall,
        ratio,
        totalFiles == 0 ? 0 : mb(totalBytes / (double) totalFiles),
        mb(totalBytes),
        totalBytes,
        withoutStats == 0 ? totalRows : null,
        withoutStats,
        anyCompactable,
        totalDeleted,
        physicalKnown ? deletedRatio(totalDeleted, totalPhysical) : null,
        compactableSmall,
        tableReachesRatio);
  }

  /** Deleted rows over physical rows, 4 decimals; 0 when there are no rows. */
  static double deletedRatio(long deleted, long physical) {
    return physical == 0 ? 0 : round(Math.min(1.0, (double) deleted / physical), 4);
  }

  /** Whether a file is below the small-file threshold. */
  public static boolean isSmall(DataFile file, long smallFileThresholdBytes) {
    return file.sizeBytes() < smallFileThresholdBytes;
  }

  static double ratioPct(int part, int whole) {
    return whole == 0 ? 0 : round(100.0 * part / whole, 2);
  }

  private static double mb(double bytes) {
    return round(bytes / ByteSizes.BYTES_PER_MB, 4);
  }

  static double round(double value, int decimals) {
    double scale = Math.pow(10, decimals);
    return Math.round(value * scale) / scale;
  }
}
