package company.data.compactor.compact;

import company.data.compactor.model.DataFile;
import company.data.compactor.model.PartitionValues;
import java.util.List;

/**
 * Adjacent small files of one partition that will be rewritten together. The writer splits the
 * output at the target file size, so a bin yields files of about the target size and at most one
 * smaller remainder.
 *
 * @param partition the partition all files belong to
 * @param files the inputs, in adjacency order
 * @param inputBytes sum of the inputs' sizes
 */
public record Bin(PartitionValues partition, List<DataFile> files, long inputBytes) {

  public Bin {
    files = List.copyOf(files);
  }

  /** Rows in the inputs from their stats; -1 when some file has none. */
  public long inputRows() {
    long rows = 0;
    for (DataFile file : files) {
      if (file.numRecords().isEmpty()) {
        return -1;
      }
      rows += file.numRecords().getAsLong();
    }
    return rows;
  }
}
