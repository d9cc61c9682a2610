package company.data.compactor.compact;

import company.data.compactor.model.DataFile;
import company.data.compactor.model.MergeRule;
import company.data.compactor.model.PartitionValues;
import company.data.compactor.model.TableSnapshot;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Plans a compaction. Pure: a function of the snapshot's file list and the options.
 *
 * <ol>
 *   <li>Scope: partitions matching {@code partition_filter}.
 *   <li>Table gate: the small-file ratio of the files in scope reaches the threshold.
 *   <li>Partition gate ({@link MergeRule#verdict}, the rule the inspector shares): each partition's
 *       own ratio reaches it too, and merging its small files yields fewer files (one small file,
 *       or small files that would fill as many target-size outputs, is {@code NOTHING_TO_MERGE};
 *       under Z-order any partition of two or more files passes, since clustering helps lookups
 *       even when the file count stays); healthy partitions are left alone. A partition whose
 *       deletion vectors delete more than {@link CompactionGate#DELETED_ROWS_RATIO_THRESHOLD} of
 *       its rows passes whatever the two ratios (fragmented by deletes, as Delta Lake's {@code
 *       OPTIMIZE} judges files).
 *   <li>Candidates: small files, and files whose deletion vector deletes more than that share of
 *       their rows.
 *   <li>Bins: within a partition, runs of adjacent candidates (commit order: modification time,
 *       then path); a large file between small ones breaks the run. A run is one bin, cut only when
 *       it exceeds {@code maxBinBytes} of input. The writer splits each bin's output at the target
 *       size, so outputs land at the target whatever the compression achieves (filling bins by an
 *       estimated output size lands them far under it and rewrites them again: delta-rs #2576).
 *       Single-file bins are dropped, except a file with a deletion vector: rewriting it alone
 *       purges the vector.
 *   <li>Z-order ({@code layout} Z_ORDER): instead of bins of small files, every file of the
 *       partition in groups of at most {@code max_zorder_group_bytes}, rows globally ordered by the
 *       Z-order key within a group; a partition whose files were all written Z-ordered by the same
 *       columns (their tag) and has no file since is left alone, so a rerun converges.
 *   <li>Budget: bins are taken in partition order until {@code max_bytes_per_run} input bytes; the
 *       rest is deferred.
 *   <li>Deletion vectors: files that carry one are rewritten like any other, without the rows it
 *       deletes; outputs carry none. The plan counts those in its bins.
 * </ol>
 *
 * <p>Convergence: outputs are at least the target size except one remainder per bin, and full
 * outputs are not candidates (when the small-file threshold is at most the target). A partition
 * rewritten as one bin is left with at most one small file, so a second run plans nothing there; a
 * run cut into several bins leaves one remainder per bin, which the next run merges once.
 */
public final class CompactionPlanner {

  /** Commit order of files: the order adjacency is judged in. */
  static final Comparator<DataFile> COMMIT_ORDER =
      Comparator.comparingLong(DataFile::modificationTimeMillis).thenComparing(DataFile::path);

  private CompactionPlanner() {}

  /** Plans the compaction of {@code snapshot} under {@code options}. */
  public static CompactionPlan plan(TableSnapshot snapshot, CompactionOptions options) {
    CompactionGate gate = new CompactionGate(options);
    Map<PartitionValues, List<DataFile>> byPartition = new TreeMap<>(PartitionValues.ORDER);
    for (DataFile file : snapshot.activeFiles()) {
      byPartition.computeIfAbsent(file.partition(), k -> new ArrayList<>()).add(file);
    }
    List<DataFile> inScope = new ArrayList<>();
    byPartition.forEach(
        (partition, files) -> {
          if (options.partitionFilter().matches(partition)) {
            inScope.addAll(files);
          }
        });
    boolean tableGate = gate.rule().reachesRatio(inScope);

    List<PartitionDecision> decisions = new ArrayList<>();
    List<Bin> planned = new ArrayList<>();
    int toPurge = 0;
    for (Map.Entry<PartitionValues, List<DataFile>> entry : byPartition.entrySet()) {
      PartitionValues partition = entry.getKey();
      List<DataFile> files = entry.getValue();
      int small = (int) files.stream().filter(gate::isSmall).count();
      if (!options.partitionFilter().matches(partition)) {
        decisions.add(
            new PartitionDecision(
                partition, files.size(), small, PartitionDecision.Outcome.FILTERED_OUT, 0));
        continue;
      }
      MergeRule.Verdict verdict = gate.rule().verdict(files, tableGate);
      if (verdict == MergeRule.Verdict.NOTHING_TO_MERGE
          && options.layout() == Layout.Z_ORDER
          && files.size() >= 2) {
        // Clustering several files improves lookups even when their count stays the same; only a
        // one-file partition has nothing to gain.
        verdict = MergeRule.Verdict.COMPACTABLE;
      }
      if (verdict != MergeRule.Verdict.COMPACTABLE) {
        decisions.add(
            new PartitionDecision(
                partition,
                files.size(),
                small,
                verdict == MergeRule.Verdict.BELOW_GATE
                    ? PartitionDecision.Outcome.BELOW_GATE
                    : PartitionDecision.Outcome.NOTHING_TO_MERGE,
                0));
        continue;
      }
      if (options.layout() == Layout.Z_ORDER
          && isClustered(files, options.zOrderColumns())
          && !gate.hasManyDeletedRows(files)) {
        decisions.add(
            new PartitionDecision(
                partition, files.size(), small, PartitionDecision.Outcome.ALREADY_CLUSTERED, 0));
        continue;
      }
      List<Bin> bins =
          options.layout() == Layout.Z_ORDER
              ? zOrderGroups(partition, files, options.maxZOrderGroupBytes())
              : binsOf(partition, files, gate);
      toPurge +=
          (int)
              bins.stream()
                  .flatMap(b -> b.files().stream())
                  .filter(DataFile::hasDeletionVector)
                  .count();
      decisions.add(
          new PartitionDecision(
              partition,
              files.size(),
              small,
              bins.isEmpty()
                  ? PartitionDecision.Outcome.NOTHING_TO_MERGE
                  : PartitionDecision.Outcome.COMPACT,
              bins.size()));
      planned.addAll(bins);
    }

    List<Bin> now = new ArrayList<>();
    List<Bin> deferred = new ArrayList<>();
    long budget = options.maxBytesPerRun().orElse(Long.MAX_VALUE);
    long used = 0;
    for (Bin bin : planned) {
      if (deferred.isEmpty() && used + bin.inputBytes() <= budget) {
        now.add(bin);
        used += bin.inputBytes();
      } else {
        deferred.add(bin);
      }
    }
    return new CompactionPlan(
        snapshot.version(), options, tableGate, now, deferred, decisions, toPurge);
  }

  /** Whether every file of a partition was written Z-ordered by {@code columns}. */
  static boolean isClustered(List<DataFile> files, List<String> columns) {
    return files.stream().allMatch(f -> f.zOrderedBy().equals(columns));
  }

  /**
   * Z-order rewrites every file of a partition that passed the gates, so the whole partition is
   * clustered: files in commit order, cut into groups of at most {@code maxGroupBytes} input (a
   * single file larger than that is a group of its own).
   */
  private static List<Bin> zOrderGroups(
      PartitionValues partition, List<DataFile> files, long maxGroupBytes) {
    List<DataFile> ordered = new ArrayList<>(files);
    ordered.sort(COMMIT_ORDER);
    List<Bin> groups = new ArrayList<>();
    List<DataFile> current = new ArrayList<>();
    long bytes = 0;
    for (DataFile file : ordered) {
      if (!current.isEmpty() && bytes + file.sizeBytes() > maxGroupBytes) {
        groups.add(new Bin(partition, current, bytes));
        current = new ArrayList<>();
        bytes = 0;
      }
      current.add(file);
      bytes += file.sizeBytes();
    }
    if (!current.isEmpty()) {
      groups.add(new Bin(partition, current, bytes));
    }
    return groups;
  }

  private static List<Bin> binsOf(
      PartitionValues partition, List<DataFile> files, CompactionGate gate) {
    List<DataFile> ordered = new ArrayList<>(files);
    ordered.sort(COMMIT_ORDER);
    List<Bin> bins = new ArrayList<>();
    List<DataFile> current = new ArrayList<>();
    long bytes = 0;
    for (DataFile file : ordered) {
      if (!gate.isCandidate(file)) {
        close(partition, current, bytes, gate, bins);
        current = new ArrayList<>();
        bytes = 0;
        continue;
      }
      if (!current.isEmpty() && !gate.fits(bytes, file.sizeBytes())) {
        close(partition, current, bytes, gate, bins);
        current = new ArrayList<>();
        bytes = 0;
      }
      current.add(file);
      bytes += file.sizeBytes();
    }
    close(partition, current, bytes, gate, bins);
    return bins;
  }

  private static void close(
      PartitionValues partition,
      List<DataFile> files,
      long bytes,
      CompactionGate gate,
      List<Bin> bins) {
    if (gate.isWorthRewriting(files)) {
      bins.add(new Bin(partition, files, bytes));
    }
  }
}
