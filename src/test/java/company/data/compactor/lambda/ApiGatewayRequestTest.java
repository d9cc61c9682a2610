package company.data.compactor.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ApiGatewayRequestTest {

  private static Map<String, Object> event(String file) throws Exception {
    return new ObjectMapper()
        .readValue(Files.readString(Path.of("events", file)), new TypeReference<>() {});
  }

  @Test
  void httpApiV2_event_givesMethodHeadersAndBody() throws Exception {
    ApiGatewayRequest request = ApiGatewayRequest.from(event("webhook-http-v2.json")).orElseThrow();

    assertThat(request.format()).isEqualTo("2.0");
    assertThat(request.method()).isEqualTo("POST");
    assertThat(request.header("X-Delta-Compactor-Key")).contains("local-test-key-not-a-secret");
    assertThat(request.body()).contains("s3://delta-lake-prod/tables/events");
  }

  @Test
  void restApiV1_event_lowerCasesHeaderNames() throws Exception {
    ApiGatewayRequest request = ApiGatewayRequest.from(event("webhook-rest-v1.json")).orElseThrow();

    assertThat(request.format()).isEqualTo("1.0");
    assertThat(request.headers()).containsKey("x-delta-compactor-key");
  }

  @Test
  void base64Body_isDecoded() throws Exception {
    ApiGatewayRequest request =
        ApiGatewayRequest.from(event("webhook-http-v2-base64.json")).orElseThrow();

    assertThat(request.body())
        .isEqualTo(
            "{\"table_uri\": \"s3://delta-lake-prod/tables/clicks\", \"partition_filter\": \"event_date >= '2026-11-01'\"}");
  }

  @Test
  void otherEvents_areNotApiGatewayRequests() throws Exception {
    assertThat(ApiGatewayRequest.from(event("schedule.json"))).isEmpty();
    assertThat(ApiGatewayRequest.from(event("direct-demo.json"))).isEmpty();
  }
}
