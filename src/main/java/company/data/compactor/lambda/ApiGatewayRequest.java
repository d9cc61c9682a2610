package company.data.compactor.lambda;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The parts of an API Gateway proxy event the webhook needs, from either payload format: HTTP API
 * (version 2.0: {@code requestContext.http.method}) or REST API (version 1.0: {@code httpMethod}).
 * Header names are lower-cased (REST APIs keep the caller's case); a base64 body is decoded.
 *
 * @param format {@code "2.0"} or {@code "1.0"}
 * @param method the HTTP method, upper case
 * @param headers header values by lower-case name
 * @param body the raw request body as sent (UTF-8), empty when there is none
 */
record ApiGatewayRequest(String format, String method, Map<String, String> headers, String body) {

  ApiGatewayRequest {
    headers = Map.copyOf(headers);
  }

  /**
   * The request in {@code event}, or empty when the event is not an API Gateway proxy event.
   *
   * @throws IllegalArgumentException when the body is marked base64 but does not decode
   */
  static Optional<ApiGatewayRequest> from(Map<String, Object> event) {
    String format;
    Object method;
    if ("2.0".equals(event.get("version"))
        && event.get("requestContext") instanceof Map<?, ?> context
        && context.get("http") instanceof Map<?, ?> http) {
      format = "2.0";
      method = http.get("method");
    } else if (event.get("httpMethod") != null) {
      format = "1.0";
      method = event.get("httpMethod");
    } else {
      return Optional.empty();
    }
    Map<String, String> headers = new HashMap<>();
    if (event.get("headers") instanceof Map<?, ?> raw) {
      raw.forEach(
          (k, v) -> {
            if (k != null && v != null) {
              headers.put(k.toString().toLowerCase(Locale.ROOT), v.toString());
            }
          });
    }
    String body = event.get("body") == null ? "" : event.get("body").toString();
    if (Boolean.TRUE.equals(event.get("isBase64Encoded"))
        || "true".equals(String.valueOf(event.get("isBase64Encoded")))) {
      try {
        body = new String(Base64.getMimeDecoder().decode(body), StandardCharsets.UTF_8);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "the body is marked isBase64Encoded but is not valid base64", e);
      }
    }
    return Optional.of(
        new ApiGatewayRequest(
            format, String.valueOf(method).toUpperCase(Locale.ROOT), headers, body));
  }

  /** A header by case-insensitive name. */
  Optional<String> header(String name) {
    return Optional.ofNullable(headers.get(name.toLowerCase(Locale.ROOT)));
  }
}
