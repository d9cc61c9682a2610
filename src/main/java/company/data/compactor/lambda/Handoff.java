package company.data.compactor.lambda;

import company.data.compactor.lease.Lease;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A run the webhook accepted and hands to the maintenance function: the run id (also the report's
 * execution id), the caller's inputs merged over the server defaults, and the lease the webhook
 * took for the run. Travels as {@code {"handoff": {...}}}.
 *
 * @param runId the run id given to the caller in the 202 answer
 * @param inputs request inputs by snake-case name
 * @param lease the table's lease, owned by {@code runId}
 */
record Handoff(String runId, Map<String, Object> inputs, Lease lease) {

  /** The event key that marks a hand-off. */
  static final String EVENT_KEY = "handoff";

  Handoff {
    inputs = Map.copyOf(inputs);
  }

  /** The invocation payload. */
  Map<String, Object> toEvent() {
    Map<String, Object> leaseFields = new LinkedHashMap<>();
    leaseFields.put("key", lease.key());
    leaseFields.put("table_uri", lease.tableUri());
    leaseFields.put("owner", lease.owner());
    leaseFields.put("acquired_at", lease.acquiredAt().toString());
    leaseFields.put("expires_at", lease.expiresAt().toString());
    Map<String, Object> handoff = new LinkedHashMap<>();
    handoff.put("run_id", runId);
    handoff.put("inputs", inputs);
    handoff.put("lease", leaseFields);
    return Map.of(EVENT_KEY, handoff);
  }

  /**
   * The hand-off in {@code event}, empty when the event is not one.
   *
   * @throws IllegalArgumentException when the event is a malformed hand-off
   */
  @SuppressWarnings("unchecked")
  static Optional<Handoff> from(Map<String, Object> event) {
    if (!(event.get(EVENT_KEY) instanceof Map<?, ?> raw)) {
      return Optional.empty();
    }
    try {
      Map<String, Object> handoff = (Map<String, Object>) raw;
      Map<String, Object> lease = (Map<String, Object>) handoff.get("lease");
      Map<String, Object> inputs = (Map<String, Object>) handoff.getOrDefault("inputs", Map.of());
      return Optional.of(
          new Handoff(
              (String) required(handoff, "run_id"),
              inputs,
              new Lease(
                  (String) required(lease, "key"),
                  (String) required(lease, "table_uri"),
                  (String) required(lease, "owner"),
                  Instant.parse((String) required(lease, "acquired_at")),
                  Instant.parse((String) required(lease, "expires_at")))));
    } catch (ClassCastException
        | NullPointerException
        | java.time.format.DateTimeParseException e) {
      throw new IllegalArgumentException("malformed hand-off event: " + e.getMessage(), e);
    }
  }

  private static Object required(Map<String, Object> map, String key) {
    Object value = map.get(key);
    if (value == null) {
      throw new IllegalArgumentException("malformed hand-off event: missing " + key);
    }
    return value;
  }
}
