package company.data.compactor.notify;

import company.data.compactor.report.MaintenanceReport;

/** Where no Slack webhook URL is configured: every notification is recorded as not configured. */
public final class NoNotifier implements Notifier {

  private static final NotificationResult NOT_CONFIGURED =
      new NotificationResult(
          "not_configured", "notify_slack is true but no SLACK_WEBHOOK_URL is configured", 0);

  @Override
  public NotificationResult success(MaintenanceReport report) {
    return NOT_CONFIGURED;
  }

  @Override
  public NotificationResult failure(FailureAlert alert) {
    return NOT_CONFIGURED;
  }
}
