package company.data.compactor.lambda;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/** The maintenance function with three scheduled tables: two demo tables and a missing one. */
public class ScheduleProfile implements QuarkusTestProfile {

  @Override
  public Map<String, String> getConfigOverrides() {
    return Map.of(
        "COMPACTOR_SCHEDULED_TABLES",
        "[{\"table_uri\": \"schedule_a\", \"demo_mode\": true},"
            + " {\"table_uri\": \"schedule_missing\"},"
            + " {\"table_uri\": \"schedule_b\", \"demo_mode\": true, \"vacuum_retention_hours\": 200}]");
  }
}
