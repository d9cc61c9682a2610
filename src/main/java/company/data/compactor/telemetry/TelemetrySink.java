package company.data.compactor.telemetry;

import company.data.compactor.report.MaintenanceReport;

/** Where run reports are kept for history. Implementations are thread-safe. */
public interface TelemetrySink {

  /**
   * Persists one run's {@link TelemetryRecord}: the blueprint's fields and every field of {@code
   * report}.
   *
   * @throws company.data.compactor.error.CompactorException OPERATION_FAILED when it cannot be
   *     stored
   */
  void record(MaintenanceReport report);

  /** Where the records go, for logs and docs, e.g. a file path or a table name. */
  String describe();
}
