package company.data.compactor.telemetry;

import company.data.compactor.report.MaintenanceReport;
import company.data.compactor.report.ReportJson;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What every telemetry sink stores for one run: the blueprint's fields ({@link BlueprintRecord}) at
 * the top level, then every other field of the report under its JSON name. Where both use one name
 * they state the same value.
 */
public final class TelemetryRecord {

  private TelemetryRecord() {}

  /**
   * The record of {@code report}, as a JSON object tree (maps, lists, strings, numbers, booleans,
   * nulls).
   */
  public static Map<String, Object> of(MaintenanceReport report) {
    Map<String, Object> record = new LinkedHashMap<>(BlueprintRecord.of(report).asMap());
    ReportJson.asMap(report)
        .forEach(
            (name, value) -> {
              if (!record.containsKey(name)) {
                record.put(name, value);
              }
            });
    return record;
  }
}
