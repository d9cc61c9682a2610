package company.data.compactor.probe;

import company.data.compactor.model.PartitionValues;
import company.data.compactor.model.TableSnapshot;
import java.util.List;

/** Measures what a reader of the table's storage pays to answer a representative query. */
public interface LatencyProbe {

  /**
   * Reads the active files of {@code partitions} of {@code snapshot} as a reader would and times
   * it.
   *
   * @param partitions partitions to read (the same before and after compaction, so the two figures
   *     compare)
   * @throws company.data.compactor.error.CompactorException OPERATION_FAILED when storage or the
   *     query fails
   */
  ProbeResult measure(TableSnapshot snapshot, List<PartitionValues> partitions);

  /** How many partitions to read: the caller picks the most fragmented ones. */
  int samplePartitions();

  /** One sentence describing the method, for the report. */
  String method();
}
