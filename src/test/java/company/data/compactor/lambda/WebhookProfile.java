package company.data.compactor.lambda;

import company.data.compactor.testing.AwsStandIns;
import company.data.compactor.testing.DynoxideServer;
import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The webhook function as deployed: leases in DynamoDB (Dynoxide), hand-off through the Lambda
 * Invoke API (WireMock stand-in), the sample events' key, an allowlist of one S3 prefix.
 */
public class WebhookProfile implements QuarkusTestProfile {

  static final String KEY = "local-test-key-not-a-secret";
  static final String MAINTENANCE_FUNCTION = "delta-compactor-maintenance";
  static final String LEASE_TABLE = "webhook-test-leases";

  @Override
  public Map<String, String> getConfigOverrides() {
    DynoxideServer.shared().createLeaseTable(LEASE_TABLE);
    Map<String, String> config = new HashMap<>(DynoxideServer.shared().environment());
    config.put("quarkus.funqy.export", "webhook");
    config.put("AWS_ENDPOINT_URL_LAMBDA", AwsStandIns.endpoint());
    config.put("COMPACTOR_LEASE_TABLE", LEASE_TABLE);
    config.put("DELTA_COMPACTOR_WEBHOOK_KEY", KEY);
    config.put("COMPACTOR_MAINTENANCE_FUNCTION", MAINTENANCE_FUNCTION);
    config.put("COMPACTOR_ALLOWED_TABLE_PREFIXES", "s3://delta-lake-prod/tables");
    return config;
  }

  @Override
  public List<TestResourceEntry> testResources() {
    return List.of();
  }
}
