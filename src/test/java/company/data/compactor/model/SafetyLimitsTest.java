package company.data.compactor.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import company.data.compactor.compact.ZOrderKey;
import company.data.compactor.config.MaintenanceRequest;
import company.data.compactor.config.RequestRules;
import company.data.compactor.vacuum.Retention;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The safety constants are defined once: what the request rules refuse and what the code that acts
 * applies are the same value (each was defined twice before).
 */
class SafetyLimitsTest {

  @Test
  void theRetentionFloor_ofTheRequestRules_isTheFloorVacuumApplies() {
    MaintenanceRequest atFloor = MaintenanceRequest.defaults();
    assertThat(atFloor.vacuumRetentionHours()).isEqualTo(SafetyLimits.RETENTION_FLOOR_HOURS);
    assertThat(RequestRules.violations(atFloor)).isEmpty();
    assertThat(Retention.effective(1, Map.of()).duration())
        .isEqualTo(Duration.ofHours(SafetyLimits.RETENTION_FLOOR_HOURS));
  }

  @Test
  void theZOrderColumnCap_ofTheRequestRules_isTheCapTheKeyAccepts() {
    int cap = SafetyLimits.MAX_Z_ORDER_COLUMNS;
    List<String> atCap = List.of("a", "b", "c", "d").subList(0, cap);
    List<String> overCap = Collections.nCopies(cap + 1, "x");
    MaintenanceRequest request = MaintenanceRequest.defaults();

    assertThat(RequestRules.violations(request.withZOrderColumns(atCap))).isEmpty();
    assertThat(RequestRules.violations(request.withZOrderColumns(overCap)))
        .anySatisfy(v -> assertThat(v.rule()).startsWith("at most " + cap + " columns"));
    assertThatThrownBy(() -> ZOrderKey.interleave(new int[cap + 1]))
        .hasMessageContaining("1 to " + cap + " columns");
  }
}
