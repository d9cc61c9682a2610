package company.data.compactor.telemetry;

import company.data.compactor.model.TableLocation;
import java.util.List;
import java.util.Map;

/** Reads back what a {@link TelemetrySink} stored. */
public interface TelemetryHistory {

  /**
   * The table's most recent run records, newest first, at most {@code limit}; each record is the
   * report's JSON object (snake-case fields, {@code schema_version} included).
   *
   * @throws company.data.compactor.error.CompactorException OPERATION_FAILED when the store cannot
   *     be read
   */
  List<Map<String, Object>> recent(TableLocation table, int limit);
}
