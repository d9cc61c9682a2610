package company.data.compactor.lambda;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A webhook answer: status and JSON body, returned to API Gateway in the proxy-integration shape
 * both payload formats accept.
 *
 * @param status HTTP status
 * @param body the JSON body's fields
 */
record HttpResponse(int status, Map<String, Object> body) {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** An error answer: {@code {"error": code, "message": message}} plus {@code extra} fields. */
  static HttpResponse error(int status, String code, String message, Map<String, Object> extra) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("error", code);
    body.put("message", message);
    body.putAll(extra);
    return new HttpResponse(status, body);
  }

  /** {@code statusCode}, JSON {@code headers}, the body as a JSON string, not base64. */
  Map<String, Object> toApiGateway() {
    Map<String, Object> response = new LinkedHashMap<>();
    response.put("statusCode", status);
    response.put("headers", Map.of("content-type", "application/json"));
    try {
      response.put("body", JSON.writeValueAsString(body));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a response body of plain values must serialise", e);
    }
    response.put("isBase64Encoded", false);
    return response;
  }
}
