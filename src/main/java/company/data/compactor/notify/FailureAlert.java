package company.data.compactor.notify;

/**
 * What a failure alert says: which run of which table failed, and the class of the error. No
 * message text or stack trace: those can carry paths, values or secrets; the logs have them.
 *
 * @param executionId the run
 * @param tableUri the table
 * @param command {@code run}, {@code vacuum}, ...
 * @param errorClass the error's kind (e.g. {@code OPERATION_FAILED}) or exception class name
 * @param failedAt ISO-8601 UTC time of the failure
 */
public record FailureAlert(
    String executionId, String tableUri, String command, String errorClass, String failedAt) {}
