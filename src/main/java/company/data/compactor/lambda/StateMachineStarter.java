package company.data.compactor.lambda;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.admission.AdmittedRun;
import company.data.compactor.error.Errors;
import company.data.compactor.lease.Lease;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sfn.SfnClient;

/**
 * Starts a fan-out run: a Step Functions execution of the state machine {@value #ARN_VARIABLE}
 * named by the run id, with input {@code {"inputs": {...}, "execution_reason": "...", "lease":
 * null|{...}}} (a lease the webhook took for the run id is continued by the Plan task).
 */
class StateMachineStarter {

  /** The variable naming the fan-out state machine (its ARN). */
  static final String ARN_VARIABLE = "COMPACTOR_STATE_MACHINE_ARN";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final SfnClient client;
  private final String stateMachineArn;

  StateMachineStarter(SfnClient client, String stateMachineArn) {
    this.client = client;
    this.stateMachineArn = stateMachineArn;
  }

  /** The execution input for {@code run}. */
  static Map<String, Object> input(AdmittedRun run, String reason, Lease lease) {
    Map<String, Object> input = new LinkedHashMap<>();
    input.put("inputs", run.inputs());
    input.put("execution_reason", reason);
    input.put("lease", lease == null ? null : FanOutTasks.leaseFields(lease));
    return input;
  }

  /**
   * Starts the execution {@code runId}; returns its ARN.
   *
   * @throws company.data.compactor.error.CompactorException OPERATION_FAILED when Step Functions
   *     refuses or cannot be reached (nothing was touched)
   */
  String start(String runId, AdmittedRun run, String reason, Lease lease) {
    String body;
    try {
      body = JSON.writeValueAsString(input(run, reason, lease));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("plain values must serialise", e);
    }
    try {
      return client
          .startExecution(b -> b.stateMachineArn(stateMachineArn).name(runId).input(body))
          .executionArn();
    } catch (SdkException e) {
      throw Errors.operationFailed(
          "starting the fan-out run " + runId + " of " + run.location() + " on " + stateMachineArn,
          e);
    }
  }
}
