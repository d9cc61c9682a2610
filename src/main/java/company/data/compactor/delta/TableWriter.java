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
}
