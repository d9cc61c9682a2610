package company.data.compactor.telemetry;

import company.data.compactor.model.TableLocation;
import java.util.List;
import java.util.Map;

/** Reads back what a {@link TelemetrySink} stored. */
public interface TelemetryHistory {

  /**
   * The table's most recent run records, newest first, at most {@code limit}, each as stored: a
   * {@link TelemetryRecord} (records written before the blueprint's fields were stored lack them;
   * {@link BlueprintRecord#read} finds their facts in either).
   *
   * @throws company.data.compactor.error.CompactorException OPERATION_FAILED when the store cannot
   *     be read
   */
  List<Map<String, Object>> recent(TableLocation table, int limit);
}
