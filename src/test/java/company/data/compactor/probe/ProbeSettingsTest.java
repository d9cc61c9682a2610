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
}
