package company.data.compactor.admission;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.config.InputKey;
import company.data.compactor.error.Errors;
import company.data.compactor.error.Violation;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Request inputs of the remote triggers (webhook, schedule): the caller's values over the
 * server-side defaults in {@value #DEFAULTS_VARIABLE} (a JSON object of inputs), over {@code
 * demo_mode=false}: a trigger about a real table must never mean "seed the demo there".
 */
public final class RemoteInputs {

  /** Server-side default inputs, a JSON object such as {@code {"vacuum_dry_run": false}}. */
  public static final String DEFAULTS_VARIABLE = "COMPACTOR_DEFAULT_INPUTS";

  private static final ObjectMapper JSON = new ObjectMapper();

  private RemoteInputs() {}

  /**
   * {@code given} merged over the defaults.
   *
   * @throws company.data.compactor.error.CompactorException INVALID_REQUEST when {@code given} is
   *     null (a JSON {@code null} entry) or the defaults variable is not a JSON object
   */
  public static Map<String, Object> merge(Map<String, String> environment, Map<String, ?> given) {
    if (given == null) {
      throw Errors.invalidRequest(
          List.of(new Violation("inputs", "null", "must be a JSON object of request inputs")));
    }
    Map<String, Object> merged = new LinkedHashMap<>();
    merged.put(InputKey.DEMO_MODE.key(), false);
    String defaults = environment.get(DEFAULTS_VARIABLE);
    if (defaults != null && !defaults.isBlank()) {
      try {
        merged.putAll(JSON.readValue(defaults, new TypeReference<Map<String, Object>>() {}));
      } catch (JsonProcessingException e) {
        throw Errors.invalidRequest(
            List.of(
                new Violation(
                    DEFAULTS_VARIABLE, defaults, "must be a JSON object of request inputs")));
      }
    }
    merged.putAll(given);
    return merged;
  }
}
