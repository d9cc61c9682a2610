package company.data.compactor.lambda;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.config.RequestReader;
import company.data.compactor.config.TableAllowlist;
import company.data.compactor.config.TableUris;
import company.data.compactor.error.CompactorException;
import company.data.compactor.lease.Lease;
import company.data.compactor.lease.LeaseAttempt;
import company.data.compactor.lease.Leases;
import company.data.compactor.model.TableLocation;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The webhook, in order: authenticate (401, no detail), parse and validate the body (400 naming
 * every invalid field), check the table allowlist (403; an empty allowlist allows nothing here),
 * take the table's lease (409 naming the run that holds it), hand the run to the maintenance
 * function (the lease is released if that fails), answer 202 with the run id. Nothing is touched
 * before every check passed. The key and request headers are never logged or echoed.
 */
final class WebhookHandler {

  private static final System.Logger LOG = System.getLogger(WebhookHandler.class.getName());
  private static final ObjectMapper JSON = new ObjectMapper();

  /** What the handler works with, built by the function per invocation. */
  record Parts(
      WebhookAuthenticator authenticator,
      Map<String, String> environment,
      Path workDir,
      Leases leases,
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
    if (!parts.authenticator().authenticates(request)) {
      LOG.log(Level.WARNING, "webhook: unauthenticated call refused (format {0})", request.format());
      return HttpResponse.error(401, "unauthorized", "unauthorized", Map.of());
    }
    Map<String, Object> given;
    try {
      given = JSON.readValue(request.body().isBlank() ? "{}" : request.body(), new TypeReference<Map<String, Object>>() {});
    } catch (JsonProcessingException e) {
      return HttpResponse.error(400, "invalid_request",
          "the body must be a JSON object of request inputs (" + e.getOriginalMessage() + ")", Map.of());
    }
    Map<String, Object> inputs;
    TableLocation table;
    try {
      inputs = RemoteInputs.merge(parts.environment(), given);
      table = TableUris.resolve(RequestReader.read(inputs), parts.workDir());
    } catch (CompactorException e) {
      return invalid(e);
    }
    TableAllowlist allowlist =
        TableAllowlist.parse(parts.environment().get(TableAllowlist.ENVIRONMENT_VARIABLE), parts.workDir());
    if (allowlist.prefixes().isEmpty()) {
      return HttpResponse.error(403, "forbidden",
          "this webhook maintains no tables until the operator sets " + TableAllowlist.ENVIRONMENT_VARIABLE,
          Map.of("table_uri", table.uri()));
    }
    List<company.data.compactor.error.Violation> outside = allowlist.violations(table);
    if (!outside.isEmpty()) {
      return HttpResponse.error(403, "forbidden", outside.get(0).describe(), Map.of("table_uri", table.uri()));
    }
    String runId = parts.runIds().get();
    LeaseAttempt attempt = parts.leases().store().tryAcquire(table, runId, parts.clock().instant(), parts.leases().ttl());
    if (!attempt.succeeded()) {
      Lease holder = attempt.heldBy().orElseThrow();
      LOG.log(Level.INFO, "webhook: table={0} busy, held by run {1} until {2}", table, holder.owner(), holder.expiresAt());
      return HttpResponse.error(409, "conflict", Leases.busy(table, holder).getMessage(), Map.of(
          "table_uri", table.uri(), "held_by_run", holder.owner(), "lease_expires_at", holder.expiresAt().toString()));
    }
    Lease lease = attempt.acquired().orElseThrow();
    try {
      parts.launcher().launch(new Handoff(runId, inputs, lease));
    } catch (RuntimeException e) {
      parts.leases().store().release(lease);
      LOG.log(Level.ERROR, "webhook: could not hand run {0} for table={1} to the maintenance function: {2}", runId, table, e.getMessage());
      return HttpResponse.error(502, "launch_failed",
          "the run could not be started; nothing was touched, try again", Map.of("table_uri", table.uri()));
    }
    LOG.log(Level.INFO, "webhook: run {0} accepted for table={1}, lease until {2}", runId, table, lease.expiresAt());
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("status", "accepted");
    body.put("run_id", runId);
    body.put("table_uri", table.uri());
    body.put("lease_expires_at", lease.expiresAt().toString());
    return new HttpResponse(202, body);
  }

  private static HttpResponse invalid(CompactorException e) {
    List<Map<String, Object>> violations = e.violations().stream()
        .map(v -> {
          Map<String, Object> m = new LinkedHashMap<>();
          m.put("field", v.key());
          m.put("value", v.value());
          m.put("rule", v.rule());
          return m;
        })
        .toList();
    return HttpResponse.error(400, "invalid_request", e.getMessage(), Map.of("violations", violations));
  }
}
