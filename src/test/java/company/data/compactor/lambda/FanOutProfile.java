package company.data.compactor.lambda;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/** The function as the state machine's task function ({@code QUARKUS_FUNQY_EXPORT=fanout}). */
public class FanOutProfile implements QuarkusTestProfile {

  @Override
  public Map<String, String> getConfigOverrides() {
    return Map.of("quarkus.funqy.export", "fanout", "COMPACTOR_FAN_OUT_MAX_CONCURRENCY", "7");
  }
}
