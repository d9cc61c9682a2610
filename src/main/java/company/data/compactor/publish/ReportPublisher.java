package company.data.compactor.publish;

import company.data.compactor.report.MaintenanceReport;
import java.util.Optional;

/** Writes a run's human-readable page somewhere people can open it. */
public interface ReportPublisher {

  /**
   * Publishes {@code report} and returns where it went, or empty when publishing is off.
   *
   * @throws company.data.compactor.error.CompactorException OPERATION_FAILED when it cannot be
   *     written
   */
  Optional<String> publish(MaintenanceReport report);
}
