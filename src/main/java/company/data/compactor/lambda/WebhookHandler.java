package company.data.compactor.lambda;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.admission.Admission;
import company.data.compactor.admission.AdmittedRun;
import company.data.compactor.admission.Trigger;
import company.data.compactor.error.CompactorException;
import company.data.compactor.error.Errors;
import company.data.compactor.error.Violation;
import company.data.compactor.lease.Lease;
import company.data.compactor.lease.LeaseAttempt;
import company.data.compactor.lease.Leases;
import company.data.compactor.lease.ReplayLedger;
import company.data.compactor.model.TableLocation;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The webhook, in order: authenticate (401, no detail), refuse a signed request already received
 * (409 {@code replayed}, see {@link ReplayLedger}), parse the body and admit it ({@link Admission},
 * trigger {@link Trigger#WEBHOOK}: 400 naming every invalid field, a body that is not one JSON
 * object being a violation of {@code body}; 403 when only the table allowlist refuses, and an empty
 * allowlist allows nothing in this deployment; a prefix that is not a valid table location is a
 * configuration error, 500), take the table's lease (409 naming the run that holds it), hand the
 * run to the maintenance function (the lease is released if that fails), answer 202 with the run
 * id. Nothing is touched before every check passed. The key and request headers are never logged or
 * echoed.
 */
final class WebhookHandler {

  private static final System.Logger LOG = System.getLogger(WebhookHandler.class.getName());
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  /** How a violation names the request body as a whole. */
  static final String BODY_FIELD = "body";

  private static final String BODY_RULE = "must be a JSON object of request inputs";

  /** What the handler works with, built by the function per invocation. */
  record Parts(
      WebhookAuthenticator authenticator,
      Map<String, String> environment,
      Path workDir,
      Leases leases,
      ReplayLedger replays,
      RunLauncher launcher,
      Clock clock,
      Supplier<String> runIds) {}

  private final Parts parts;

  WebhookHandler(Parts parts) {
    this.parts = parts;
  }

  HttpResponse handle(ApiGatewayRequest request) {
    if (!request.method().equals("POST")) {
      return HttpResponse.error(405, "method_not_allowed", "use POST with a JSON body", Map.of());
    }
    Optional<WebhookAuthenticator.Proof> proof = parts.authenticator().verify(request);
    if (proof.isEmpty()) {
      LOG.log(
          Level.WARNING, "webhook: unauthenticated call refused (format {0})", request.format());
      return HttpResponse.error(401, "unauthorized", "unauthorized", Map.of());
    }
    if (isReplay(proof.get())) {
      LOG.log(
          Level.WARNING, "webhook: replayed signed request refused (format {0})", request.format());
      return HttpResponse.error(
          409,
          "replayed",
          "this signed request was already received; sign each request with a new timestamp",
          Map.of());
    }
    Admission admission;
    try {
      admission = Admission.configuredBy(parts.environment(), parts.workDir());
    } catch (CompactorException e) {
      LOG.log(Level.ERROR, "webhook: not configured correctly: {0}", e.getMessage());
      return HttpResponse.error(
          500,
          "not_configured",
          "the webhook is not configured correctly; nothing was started",
          Map.of());
    }
    AdmittedRun run;
    try {
      run = admission.admit(Trigger.WEBHOOK, bodyInputs(request.body()));
    } catch (CompactorException e) {
      if (Admission.refusedByAllowlistOnly(e)) {
        Violation outside = e.violations().get(0);
        return HttpResponse.error(
            403, "forbidden", outside.describe(), Map.of("table_uri", outside.value()));
      }
      return invalid(e);
    }
    Map<String, Object> inputs = run.inputs();
    TableLocation table = run.location();
    String runId = parts.runIds().get();
    LeaseAttempt attempt =
        parts
            .leases()
            .store()
            .tryAcquire(table, runId, parts.clock().instant(), parts.leases().ttl());
    if (!attempt.succeeded()) {
      Lease holder = attempt.heldBy().orElseThrow();
      LOG.log(
          Level.INFO,
          "webhook: table={0} busy, held by run {1} until {2}",
          table,
          holder.owner(),
          holder.expiresAt());
      return HttpResponse.error(
          409,
          "conflict",
          Leases.busy(table, holder).getMessage(),
          Map.of(
              "table_uri",
              table.uri(),
              "held_by_run",
              holder.owner(),
              "lease_expires_at",
              holder.expiresAt().toString()));
    }
    Lease lease = attempt.acquired().orElseThrow();
    try {
      parts.launcher().launch(new Handoff(runId, inputs, lease));
    } catch (RuntimeException e) {
      parts.leases().store().release(lease);
      LOG.log(
          Level.ERROR,
          "webhook: could not hand run {0} for table={1} to the maintenance function: {2}",
          runId,
          table,
          e.getMessage());
      return HttpResponse.error(
          502,
          "launch_failed",
          "the run could not be started; nothing was touched, try again",
          Map.of("table_uri", table.uri()));
    }
    LOG.log(
        Level.INFO,
        "webhook: run {0} accepted for table={1}, lease until {2}",
        runId,
        table,
        lease.expiresAt());
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("status", "accepted");
    body.put("run_id", runId);
    body.put("table_uri", table.uri());
    body.put("lease_expires_at", lease.expiresAt().toString());
    return new HttpResponse(202, body);
  }

  /** Whether a signed request was already received while its signature is still valid. */
  private boolean isReplay(WebhookAuthenticator.Proof proof) {
    if (proof.replayDigest().isEmpty()) {
      return false;
    }
    return !parts
        .replays()
        .recordFirstUse(
            proof.replayDigest().get(), parts.clock().instant(), proof.validUntil().orElseThrow());
  }

  /**
   * The request inputs a body holds: a JSON object (a blank body is an empty one).
   *
   * @throws CompactorException INVALID_REQUEST naming {@value #BODY_FIELD} when the body is not one
   *     JSON object: {@code null}, an array, a scalar, malformed, trailing content, or past
   *     Jackson's nesting and number-length limits
   */
  private static Map<String, Object> bodyInputs(String body) {
    JsonNode node;
    String problem = "";
    try {
      node = JSON.readTree(body.isBlank() ? "{}" : body);
    } catch (JsonProcessingException e) {
      node = null;
      problem = " (" + Violation.excerpt(e.getOriginalMessage()) + ")";
    }
    if (node == null || !node.isObject()) {
      throw Errors.invalidRequest(
          List.of(new Violation(BODY_FIELD, Violation.excerpt(body), BODY_RULE + problem)));
    }
    return JSON.convertValue(node, new TypeReference<Map<String, Object>>() {});
  }

  private static HttpResponse invalid(CompactorException e) {
    List<Map<String, Object>> violations =
        e.violations().stream()
            .map(
                v -> {
                  Map<String, Object> m = new LinkedHashMap<>();
                  m.put("field", v.key());
                  m.put("value", v.value());
                  m.put("rule", v.rule());
                  return m;
                })
            .toList();
    return HttpResponse.error(
        400, "invalid_request", e.getMessage(), Map.of("violations", violations));
  }
}
