package company.data.compactor.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** The demo's rows are the ones {@code String.format} spelled before, byte for byte. */
class DemoTableTest {

  @Test
  void rowsOf_spellsIdsAsTheFormatStringsDid_forEveryAppend() {
    for (int append = 0; append < DemoTable.APPENDS; append++) {
      List<List<Object>> rows = DemoTable.rowsOf(append);
      assertThat(rows).hasSize(DemoTable.ROWS_PER_APPEND);
      for (int r = 0; r < rows.size(); r++) {
        assertThat(rows.get(r).get(0))
            .isEqualTo(String.format(Locale.ROOT, "EVT_%d_%05d", append, r));
        assertThat(rows.get(r).get(1))
            .isEqualTo(
                String.format(Locale.ROOT, "CUST_%04d", (append * 10 + r) % DemoTable.CUSTOMERS));
      }
    }
  }

  @Test
  void zeroPadded_matchesPercentZeroD_atAndPastTheWidth() {
    for (int value : new int[] {0, 7, 42, 999, 1000, 9999, 10000, 123456}) {
      assertThat(DemoTable.zeroPadded(value, 4)).isEqualTo(String.format("%04d", value));
      assertThat(DemoTable.zeroPadded(value, 5)).isEqualTo(String.format("%05d", value));
    }
  }
}
