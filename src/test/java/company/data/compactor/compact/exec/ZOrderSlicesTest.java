package company.data.compactor.compact.exec;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * How many equal slices a Z-ordered group is cut into: as few as keep each at or under the target.
 */
class ZOrderSlicesTest {

  private static final long MB = 1024 * 1024;

  @Test
  void exactMultipleOfTheTarget_fillsEachFile() {
    assertThat(DuckDbRewriter.slices(6_000_000, 16.0 * MB / 1_000_000, 16 * MB)).isEqualTo(6);
  }

  @Test
  void justOverAMultiple_takesOneMoreFile_soNoneExceedsTheTarget() {
    // 99.6 MiB at a 16 MiB target: 7 files of 14.2 MiB, not 6 of 16.6 MiB.
    assertThat(DuckDbRewriter.slices(5_222_000, 20.0, 16 * MB)).isEqualTo(7);
  }

  @Test
  void lessThanTheTarget_isOneFile() {
    assertThat(DuckDbRewriter.slices(1_000, 20.0, 16 * MB)).isEqualTo(1);
    assertThat(DuckDbRewriter.slices(1, 0.0, 16 * MB)).isEqualTo(1);
  }
}
