package company.data.compactor.lambda;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.error.Errors;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.InvocationType;
import software.amazon.awssdk.services.lambda.model.InvokeResponse;

/**
 * Hands a run to the maintenance function with an asynchronous Lambda {@code Invoke} ({@code
 * InvocationType=Event}): Lambda queues the event and answers 202 at once.
 */
final class LambdaRunLauncher implements RunLauncher {

  /** The variable naming the maintenance function (name or ARN). */
  static final String FUNCTION_VARIABLE = "COMPACTOR_MAINTENANCE_FUNCTION";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final LambdaClient client;
  private final String functionName;

  LambdaRunLauncher(LambdaClient client, String functionName) {
    this.client = client;
    this.functionName = functionName;
  }

  @Override
  public void launch(Handoff handoff) {
    byte[] payload;
    try {
      payload = JSON.writeValueAsBytes(handoff.toEvent());
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a hand-off of plain values must serialise", e);
    }
    try {
      InvokeResponse response =
          client.invoke(
              b ->
                  b.functionName(functionName)
                      .invocationType(InvocationType.EVENT)
                      .payload(SdkBytes.fromByteArray(payload)));
      if (response.statusCode() != 202) {
        throw Errors.operationFailed(
            "handing run " + handoff.runId() + " to " + functionName,
            new IllegalStateException(
                "Invoke answered " + response.statusCode() + " instead of 202"));
      }
    } catch (SdkException e) {
      throw Errors.operationFailed("handing run " + handoff.runId() + " to " + functionName, e);
    }
  }
}
