package company.data.compactor.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ProbeSettingsTest {

  @Test
  void defaultQuery_assumesNoColumn() {
    assertThat(ProbeSettings.defaults().query()).isEqualTo("SELECT count(*) FROM t");
  }

  @Test
  void onlyOneSelectOrWithStatementIsAccepted() {
    assertThat(
            new ProbeSettings("WITH x AS (SELECT * FROM t) SELECT count(*) FROM x", 1, 1).query())
        .startsWith("WITH");
    assertThatThrownBy(() -> new ProbeSettings("SELECT 1; DROP TABLE t", 1, 1))
        .hasMessageContaining("one SELECT statement");
    assertThatThrownBy(() -> new ProbeSettings("COPY t TO 'x'", 1, 1))
        .hasMessageContaining("one SELECT statement");
    assertThatThrownBy(() -> new ProbeSettings("SELECT 1", 0, 1)).hasMessageContaining(">= 1");
  }

  @Test
  void fromEnvironment_defaultsWhenUnset_andReadsEveryVariable() {
    assertThat(ProbeSettings.fromEnvironment(java.util.Map.of()))
        .isEqualTo(ProbeSettings.defaults());
    assertThat(ProbeSettings.defaults().concurrency()).isEqualTo(16);
    assertThat(ProbeSettings.defaults().maxFiles()).isEqualTo(64);
    assertThat(ProbeSettings.defaults().maxBytes()).isEqualTo(128L * 1024 * 1024);
    assertThat(ProbeSettings.defaults().budgetPct()).isEqualTo(10.0);
    assertThat(ProbeSettings.defaults().budgetMinMs()).isEqualTo(2_000);

    ProbeSettings set =
        ProbeSettings.fromEnvironment(
            java.util.Map.of(
                "COMPACTOR_PROBE_CONCURRENCY", "4",
                "COMPACTOR_PROBE_MAX_FILES", "10",
                "COMPACTOR_PROBE_MAX_BYTES", "1048576",
                "COMPACTOR_PROBE_BUDGET_PCT", "2.5",
                "COMPACTOR_PROBE_BUDGET_MIN_MS", "0",
                "COMPACTOR_PROBE_RUNS", "5"));

    assertThat(set)
        .isEqualTo(new ProbeSettings(ProbeSettings.DEFAULT_QUERY, 3, 5, 4, 10, 1_048_576, 2.5, 0));
  }

  @Test
  void fromEnvironment_reportsEveryBrokenVariable_withItsValueAndRule() {
    assertThatThrownBy(
            () ->
                ProbeSettings.fromEnvironment(
                    java.util.Map.of(
                        "COMPACTOR_PROBE_CONCURRENCY", "300",
                        "COMPACTOR_PROBE_MAX_FILES", "0",
                        "COMPACTOR_PROBE_BUDGET_PCT", "ten",
                        "COMPACTOR_PROBE_BUDGET_MIN_MS", "-1")))
        .hasMessageContaining("Invalid request, 4 rules broken")
        .hasMessageContaining(
            "COMPACTOR_PROBE_CONCURRENCY=300: must be a whole number >= 1 and <= 256")
        .hasMessageContaining("COMPACTOR_PROBE_MAX_FILES=0: must be a whole number >= 1")
        .hasMessageContaining("COMPACTOR_PROBE_BUDGET_PCT=ten: must be a number > 0 and <= 100")
        .hasMessageContaining("COMPACTOR_PROBE_BUDGET_MIN_MS=-1: must be a whole number >= 0");
  }
}
