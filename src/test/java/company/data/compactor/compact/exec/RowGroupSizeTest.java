package company.data.compactor.compact.exec;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RowGroupSizeTest {

  private static final long MB = 1024 * 1024;

  @Test
  void largeTargetsKeepDuckDbsDefault() {
    // 128 MB at ~42 bytes per row holds ~3.2 million rows: an eighth is far above the default.
    assertThat(RowGroupSize.rows(128 * MB, 24_800_000L, 1_000 * MB)).isEqualTo(122_880);
  }

  @Test
  void smallTargetsGetAnEighthOfTheirRowsInWholeVectors() {
    // 16 MB at 24,800 rows per MB: 396,800 rows, an eighth is 49,600, rounded down to 24 vectors.
    assertThat(RowGroupSize.rows(16 * MB, 24_800_000L, 1_000 * MB)).isEqualTo(49_152);
    // 1 MB: 24,800 rows, an eighth is 3,100: one vector.
    assertThat(RowGroupSize.rows(MB, 24_800_000L, 1_000 * MB)).isEqualTo(2_048);
  }

  @Test
  void wideRowsNeverGoBelowOneVector() {
    assertThat(RowGroupSize.rows(MB, 1_000, 100 * MB)).isEqualTo(2_048);
  }

  @Test
  void unknownDensityKeepsTheDefault() {
    assertThat(RowGroupSize.rows(MB, 0, 0)).isEqualTo(122_880);
    assertThat(RowGroupSize.rows(MB, 10, 0)).isEqualTo(122_880);
  }
}
