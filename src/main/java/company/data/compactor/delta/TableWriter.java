package company.data.compactor.delta;

import company.data.compactor.model.PartitionValues;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSchema;
import java.util.List;
import java.util.Map;

/**
 * Creates tables and appends rows as ordinary Delta writers do (one commit per call, files with
 * stats). Used to seed the demo table and test tables.
 */
public interface TableWriter {

  /**
   * Creates an empty table (version 0).
   *
   * @param properties table properties to record in the metadata
   * @throws company.data.compactor.error.CompactorException OPERATION_FAILED when a table exists
   *     there already or storage fails
   */
  void create(TableLocation location, TableSchema schema, Map<String, String> properties);

  /**
   * Appends rows of one partition in one commit.
   *
   * @param rows each row's values in schema order, partition columns included; Java types: String,
   *     Integer, Long, Double, Boolean, {@link java.time.LocalDate}, or null
   * @return the committed version
   */
  long append(TableLocation location, PartitionValues partition, List<List<Object>> rows);

  /**
   * Appends each of {@code appends} in order, one commit each, as {@link #append} would; a writer
   * may write their data files with one engine instead of starting one per append. A failure leaves
   * the appends before it committed and none after.
   *
   * @return the version of the last commit
   */
  default long appendAll(TableLocation location, List<Append> appends) {
    long version = -1;
    for (Append append : appends) {
      version = append(location, append.partition(), append.rows());
    }
    return version;
  }

  /**
   * The rows of one append, all in one partition.
   *
   * @param rows each row's values in schema order, partition columns included (see {@link #append})
   */
  record Append(PartitionValues partition, List<List<Object>> rows) {

    public Append {
      rows = List.copyOf(rows);
    }
  }
}
