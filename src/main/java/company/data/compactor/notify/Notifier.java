package company.data.compactor.notify;

import company.data.compactor.report.MaintenanceReport;

/**
 * Tells people what a run did. Implementations never throw for a failed delivery: the outcome is
 * returned and recorded in the report, and the run's own result stands.
 */
public interface Notifier {

  /** Sends the summary of a finished run. */
  NotificationResult success(MaintenanceReport report);

  /** Sends an alert for a run that failed. */
  NotificationResult failure(FailureAlert alert);
}
