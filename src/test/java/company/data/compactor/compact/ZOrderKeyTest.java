package company.data.compactor.compact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class ZOrderKeyTest {

  @Test
  void interleave_takesEachColumnsBitsInTurn_mostSignificantFirst() {
    // 1 column: the key is the bucket.
    assertThat(ZOrderKey.interleave(5)).isEqualTo(5);
    // 2 columns, bit 9 of each first: column 0 = 0b10_0000_0000 (512), column 1 = 0 -> top bit of
    // 20.
    assertThat(ZOrderKey.interleave(512, 0)).isEqualTo(1L << 19);
    assertThat(ZOrderKey.interleave(0, 512)).isEqualTo(1L << 18);
    // lowest bits: column 0's bit 0 lands above column 1's bit 0.
    assertThat(ZOrderKey.interleave(1, 0)).isEqualTo(2);
    assertThat(ZOrderKey.interleave(0, 1)).isEqualTo(1);
    assertThat(ZOrderKey.interleave(1023, 1023, 1023, 1023)).isEqualTo((1L << 40) - 1);
  }

  @Test
  void key_preservesTheOrderOfEachColumn_whenTheOthersAreFixed() {
    Random random = new Random(3);
    for (int trial = 0; trial < 1_000; trial++) {
      int other = random.nextInt(ZOrderKey.BUCKETS);
      int a = random.nextInt(ZOrderKey.BUCKETS);
      int b = random.nextInt(ZOrderKey.BUCKETS);
      assertThat(Long.compare(ZOrderKey.interleave(a, other), ZOrderKey.interleave(b, other)))
          .isEqualTo(Integer.compare(a, b));
      assertThat(Long.compare(ZOrderKey.interleave(other, a, 7), ZOrderKey.interleave(other, b, 7)))
          .isEqualTo(Integer.compare(a, b));
    }
  }

  @Test
  void interleave_refusesBadColumnCountsAndBuckets() {
    assertThatThrownBy(ZOrderKey::interleave).hasMessageContaining("1 to 4 columns, not 0");
    assertThatThrownBy(() -> ZOrderKey.interleave(1, 2, 3, 4, 5)).hasMessageContaining("not 5");
    assertThatThrownBy(() -> ZOrderKey.interleave(1024))
        .hasMessageContaining("bucket 1024 outside [0, 1024)");
  }

  @Test
  void bucket_countsBoundariesAtOrBelow_tiesShareABucket_nullIsBucketZero() {
    List<Integer> boundaries = List.of(10, 20, 30);

    assertThat(ZOrderKey.bucket(5, boundaries, Comparator.naturalOrder())).isZero();
    assertThat(ZOrderKey.bucket(10, boundaries, Comparator.naturalOrder())).isEqualTo(1);
    assertThat(ZOrderKey.bucket(19, boundaries, Comparator.naturalOrder())).isEqualTo(1);
    assertThat(ZOrderKey.bucket(20, boundaries, Comparator.naturalOrder())).isEqualTo(2);
    assertThat(ZOrderKey.bucket(99, boundaries, Comparator.naturalOrder())).isEqualTo(3);
    assertThat(ZOrderKey.bucket(null, boundaries, Comparator.naturalOrder())).isZero();
  }

  @Test
  void longStringsSharingAPrefix_getDistinctBuckets_unlikeA16BytePrefix() {
    String prefix = "tenant-0042/warehouse/region-eu-west-1/";
    List<String> values = new ArrayList<>();
    for (int i = 0; i < 2_000; i++) {
      values.add(prefix + String.format("%05d", i));
    }
    List<String> boundaries = quantiles(values, 64);

    TreeSet<Integer> buckets = new TreeSet<>();
    values.forEach(v -> buckets.add(ZOrderKey.bucket(v, boundaries, Comparator.naturalOrder())));
    TreeSet<String> prefixes16 = new TreeSet<>();
    values.forEach(v -> prefixes16.add(v.substring(0, 16)));

    assertThat(prefixes16).hasSize(1);
    assertThat(buckets).hasSize(64);
  }

  @Test
  void skewedColumns_dedupeBoundaries_soEqualValuesStayTogether() {
    List<Integer> values = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      values.add(i < 900 ? 7 : i);
    }
    List<Integer> boundaries = quantiles(values, 16);

    assertThat(boundaries).doesNotHaveDuplicates().contains(7);
    assertThat(
            values.stream()
                .filter(v -> v == 7)
                .map(v -> ZOrderKey.bucket(v, boundaries, Comparator.naturalOrder()))
                .distinct())
        .hasSize(1);
  }

  @Test
  void sqlExpression_hasOneTermPerBitAndColumn() {
    String sql = ZOrderKey.sql(List.of("b0", "b1"));

    assertThat(sql.split("\\|")).hasSize(20);
    assertThat(sql)
        .startsWith("((((CAST(b0 AS BIGINT) >> 9) & 1) << 19)")
        .contains("(((CAST(b1 AS BIGINT) >> 0) & 1) << 0))");
  }

  /** Distinct values at the fractions i/buckets, as the rewriter's quantile_disc does. */
  private static <T extends Comparable<T>> List<T> quantiles(List<T> values, int buckets) {
    List<T> sorted = new ArrayList<>(values);
    sorted.sort(Comparator.naturalOrder());
    TreeSet<T> bounds = new TreeSet<>();
    for (int i = 1; i < buckets; i++) {
      bounds.add(sorted.get((int) ((long) i * (sorted.size() - 1) / buckets)));
    }
    return new ArrayList<>(bounds);
  }
}
