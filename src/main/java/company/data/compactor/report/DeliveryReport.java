package company.data.compactor.report;

/**
 * Where the run's results went besides this document (unwrapped to the top level).
 *
 * @param htmlReportUri the run's HTML page, null when none was written
 * @param slackNotification {@code sent}, {@code failed}, {@code not_configured} (no webhook URL)
 *     or {@code skipped} ({@code notify_slack} false)
 * @param slackNotificationDetail why it failed, or how it went, never the URL
 * @param slackNotificationAttempts HTTP attempts made (0 when none)
 */
public record DeliveryReport(
    String htmlReportUri, String slackNotification, String slackNotificationDetail, int slackNotificationAttempts) {

  /** Nothing delivered yet. */
  public static DeliveryReport none() {
    return new DeliveryReport(null, "skipped", "notify_slack is false", 0);
  }

  /** This delivery with the HTML page's location. */
  public DeliveryReport withHtmlReport(String uri) {
    return new DeliveryReport(uri, slackNotification, slackNotificationDetail, slackNotificationAttempts);
  }

  /** This delivery with the Slack outcome. */
  public DeliveryReport withSlack(String status, String detail, int attempts) {
    return new DeliveryReport(htmlReportUri, status, detail, attempts);
  }
}
