package company.data.compactor.probe;

import company.data.compactor.model.DataFile;
import company.data.compactor.model.PartitionValues;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The files one probe pass reads: a bounded sample of the chosen partitions' active files.
 *
 * @param files the sampled files, in the order chosen
 * @param bytes their total size
 * @param partitionsAvailable how many files the chosen partitions hold in all
 */
public record ProbeSample(List<DataFile> files, long bytes, int partitionsAvailable) {

  public ProbeSample {
    files = List.copyOf(files);
  }

  /**
   * Picks files of {@code partitions} (most fragmented first) round-robin, one partition's next
   * file (by path) at a time, so every chosen partition is represented: a file is taken while the
   * sample holds fewer than {@code maxFiles} and it still fits within {@code maxBytes} (a file that
   * does not fit is passed over), and picking stops once the sample holds {@code enoughBytes} (the
   * measurement after compaction reads as many bytes as the one before, from the files that now
   * hold the same partitions' rows). Pure.
   */
  public static ProbeSample select(
      List<DataFile> activeFiles,
      List<PartitionValues> partitions,
      int maxFiles,
      long maxBytes,
      long enoughBytes) {
    Map<PartitionValues, Deque<DataFile>> byPartition = new LinkedHashMap<>();
    partitions.forEach(p -> byPartition.put(p, new ArrayDeque<>()));
    int available = 0;
    for (DataFile file :
        activeFiles.stream().sorted(Comparator.comparing(DataFile::path)).toList()) {
      Deque<DataFile> queue = byPartition.get(file.partition());
      if (queue != null) {
        queue.add(file);
        available++;
      }
    }
    List<DataFile> chosen = new ArrayList<>();
    long bytes = 0;
    boolean any = true;
    while (any && chosen.size() < maxFiles && bytes < enoughBytes) {
      any = false;
      for (Deque<DataFile> queue : byPartition.values()) {
        if (chosen.size() >= maxFiles || bytes >= enoughBytes) {
          break;
        }
        DataFile next = queue.poll();
        if (next == null) {
          continue;
        }
        any = true;
        if (bytes + next.sizeBytes() <= maxBytes) {
          chosen.add(next);
          bytes += next.sizeBytes();
        }
      }
    }
    return new ProbeSample(chosen, bytes, available);
  }

  /**
   * The longest prefix of this sample (in its round-robin order, so every partition it reaches
   * stays represented) whose files together hold at most {@code maxBytes}; empty when even the
   * first file is larger. Pure.
   */
  public ProbeSample prefixWithin(long maxBytes) {
    List<DataFile> kept = new ArrayList<>();
    long total = 0;
    for (DataFile file : files) {
      if (total + file.sizeBytes() > maxBytes) {
        break;
      }
      kept.add(file);
      total += file.sizeBytes();
    }
    return kept.size() == files.size() ? this : new ProbeSample(kept, total, partitionsAvailable);
  }

  /**
   * The first {@code count} files of this sample (all of them when it holds fewer), in its
   * round-robin order. Pure.
   */
  public ProbeSample firstFiles(int count) {
    if (count >= files.size()) {
      return this;
    }
    List<DataFile> kept = files.subList(0, Math.max(0, count));
    return new ProbeSample(
        kept, kept.stream().mapToLong(DataFile::sizeBytes).sum(), partitionsAvailable);
  }

  /** Whether the chosen partitions had files but none fit the byte cap. */
  public boolean nothingFits() {
    return files.isEmpty() && partitionsAvailable > 0;
  }
}
