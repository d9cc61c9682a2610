package company.data.compactor.report;

/**
 * Where the run's results went besides this document (unwrapped to the top level). None of these
 * can undo a finished run: a failure is recorded here, logged, alerted on Slack where Slack works,
 * and the command line exits with its "maintenance done, reporting failed" code.
 *
 * @param htmlReportUri the run's HTML page, null when none was written
 * @param slackNotification {@code sent}, {@code failed}, {@code not_configured} (no webhook URL) or
 *     {@code skipped} ({@code notify_slack} false)
 * @param slackNotificationDetail why it failed, or how it went, never the URL
 * @param slackNotificationAttempts HTTP attempts made (0 when none)
 * @param telemetryStatus {@code recorded} (the stored record carries this value), {@code failed},
 *     or {@code pending} before the write
 * @param telemetryError why telemetry could not be recorded, null otherwise
 * @param leaseReleaseStatus {@code released}, {@code failed} or {@code lost} (another run took the
 *     lease over while this one worked: it was fenced) for runs that held a lease, null for runs
 *     without one (and in the stored record, written before the release)
 * @param leaseReleaseError why the lease could not be released and until when it blocks the table,
 *     or how it was lost; null otherwise
 */
public record DeliveryReport(
    String htmlReportUri,
    String slackNotification,
    String slackNotificationDetail,
    int slackNotificationAttempts,
    String telemetryStatus,
    String telemetryError,
    String leaseReleaseStatus,
    String leaseReleaseError) {

  /** Nothing delivered yet. */
  public static DeliveryReport none() {
    return new DeliveryReport(
        null, "skipped", "notify_slack is false", 0, "pending", null, null, null);
  }

  /** This delivery with the HTML page's location. */
  public DeliveryReport withHtmlReport(String uri) {
    return new DeliveryReport(
        uri,
        slackNotification,
        slackNotificationDetail,
        slackNotificationAttempts,
        telemetryStatus,
        telemetryError,
        leaseReleaseStatus,
        leaseReleaseError);
  }

  /** This delivery with the Slack outcome. */
  public DeliveryReport withSlack(String status, String detail, int attempts) {
    return new DeliveryReport(
        htmlReportUri,
        status,
        detail,
        attempts,
        telemetryStatus,
        telemetryError,
        leaseReleaseStatus,
        leaseReleaseError);
  }

  /** This delivery with the telemetry outcome ({@code error} null when recorded). */
  public DeliveryReport withTelemetry(String status, String error) {
    return new DeliveryReport(
        htmlReportUri,
        slackNotification,
        slackNotificationDetail,
        slackNotificationAttempts,
        status,
        error,
        leaseReleaseStatus,
        leaseReleaseError);
  }

  /** This delivery with the lease release outcome ({@code error} null when released). */
  public DeliveryReport withLeaseRelease(String status, String error) {
    return new DeliveryReport(
        htmlReportUri,
        slackNotification,
        slackNotificationDetail,
        slackNotificationAttempts,
        telemetryStatus,
        telemetryError,
        status,
        error);
  }

  /** Whether telemetry or the lease release failed after the maintenance itself was done. */
  public boolean reportingFailed() {
    return "failed".equals(telemetryStatus) || "failed".equals(leaseReleaseStatus);
  }
}
