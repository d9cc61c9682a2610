package company.data.compactor.notify;

/**
 * How a notification went.
 *
 * @param status {@code sent}, {@code failed}, {@code not_configured} or {@code skipped}
 * @param detail what happened (HTTP statuses, retries), never the webhook URL
 * @param attempts HTTP attempts made
 */
public record NotificationResult(String status, String detail, int attempts) {

  /** Notifications were not asked for. */
  public static NotificationResult skipped(String why) {
    return new NotificationResult("skipped", why, 0);
  }
}
