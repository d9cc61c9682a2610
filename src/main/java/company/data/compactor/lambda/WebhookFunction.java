package company.data.compactor.lambda;

import company.data.compactor.aws.AwsClients;
import company.data.compactor.error.CompactorException;
import company.data.compactor.wiring.Wiring;
import io.quarkus.funqy.Funq;
import jakarta.inject.Inject;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import software.amazon.awssdk.services.lambda.LambdaClient;

/**
 * The webhook function (Funqy {@code webhook}), behind an API Gateway route (HTTP API or REST API
 * proxy integration). Ingest jobs call it after a commit; it authenticates, validates, takes the
 * table's lease and hands the run to the maintenance function ({@code
 * COMPACTOR_MAINTENANCE_FUNCTION}), answering 202 with the run id. See {@link WebhookHandler}.
 */
public class WebhookFunction {

  private static final System.Logger LOG = System.getLogger(WebhookFunction.class.getName());

  @ConfigProperty(name = "compactor.work-dir")
  String workDir;

  @Inject Config config;

  /**
   * Kept for the container's life (SnapStart restores them too): Secrets caches, the client pools.
   */
  private Secrets secrets;

  private LambdaClient lambdaClient;

  /** Answers one API Gateway proxy event. */
  @Funq("webhook")
  public Map<String, Object> webhook(Map<String, Object> event) {
    Optional<ApiGatewayRequest> request;
    try {
      request = ApiGatewayRequest.from(event == null ? Map.of() : event);
    } catch (IllegalArgumentException e) {
      return HttpResponse.error(400, "invalid_request", e.getMessage(), Map.of()).toApiGateway();
    }
    if (request.isEmpty()) {
      return HttpResponse.error(400, "invalid_request", "not an API Gateway proxy event", Map.of())
          .toApiGateway();
    }
    Map<String, String> environment = new LambdaEnvironment(config);
    Clock clock = Clock.systemUTC();
    try {
      Optional<String> key = secrets(environment, clock).get(Secrets.WEBHOOK_KEY);
      String function = environment.get(LambdaRunLauncher.FUNCTION_VARIABLE);
      if (key.isEmpty() || function == null || function.isBlank()) {
        LOG.log(
            Level.ERROR,
            "webhook: not configured; set {0} (or {1}) and {2}",
            Secrets.WEBHOOK_KEY,
            Secrets.SECRET_ID_VARIABLE,
            LambdaRunLauncher.FUNCTION_VARIABLE);
        return HttpResponse.error(500, "not_configured", "the webhook is not configured", Map.of())
            .toApiGateway();
      }
      Path work = Path.of(workDir).toAbsolutePath();
      WebhookHandler handler =
          new WebhookHandler(
              new WebhookHandler.Parts(
                  new WebhookAuthenticator(
                      key.get(), clock, WebhookAuthenticator.ConstantTimeEquality.JDK),
                  environment,
                  work,
                  Wiring.leases(work, environment, clock),
                  Wiring.replays(work, environment),
                  new LambdaRunLauncher(launcherClient(environment), function.strip()),
                  clock,
                  () -> UUID.randomUUID().toString()));
      return handler.handle(request.get()).toApiGateway();
    } catch (CompactorException e) {
      LOG.log(Level.ERROR, "webhook: failed ({0}): {1}", e.kind(), e.getMessage());
      return HttpResponse.error(
              500, "internal_error", "the webhook failed; nothing was started", Map.of())
          .toApiGateway();
    }
  }

  private synchronized Secrets secrets(Map<String, String> environment, Clock clock) {
    if (secrets == null) {
      secrets = new Secrets(environment, clock);
    }
    return secrets;
  }

  private synchronized LambdaClient launcherClient(Map<String, String> environment) {
    if (lambdaClient == null) {
      lambdaClient = AwsClients.configure(LambdaClient.builder(), environment, "LAMBDA").build();
    }
    return lambdaClient;
  }
}
