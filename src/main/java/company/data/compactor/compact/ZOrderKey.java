package company.data.compactor.compact;

import company.data.compactor.model.SafetyLimits;
import java.util.ArrayList;
import java.util.List;

/**
 * The Z-order key: each column's value is first mapped to a bucket id by sampled quantile
 * boundaries (bucket = how many boundaries are at or below the value; NULL is bucket 0), as Delta
 * Lake's {@code range_partition_id} does, and the bucket ids' bits are interleaved, most
 * significant first. Bucketing by rank, not by raw bytes, keeps long strings that share a prefix
 * apart (delta-rs #2844) and gives skewed columns as many distinct keys as their values allow.
 */
public final class ZOrderKey {

  /** Bits per column: 1,024 buckets, about Delta Lake's default of 1,000 ranges. */
  public static final int BITS_PER_COLUMN = 10;

  /** Buckets per column. */
  public static final int BUCKETS = 1 << BITS_PER_COLUMN;

  private ZOrderKey() {}

  /**
   * The bucket of a value among sorted, distinct {@code boundaries}: how many are at or below it.
   *
   * @param compare the column's order, e.g. {@code Comparable::compareTo}
   */
  public static <T> int bucket(
      T value, List<T> boundaries, java.util.Comparator<? super T> compare) {
    if (value == null) {
      return 0;
    }
    int low = 0;
    int high = boundaries.size();
    while (low < high) {
      int mid = (low + high) >>> 1;
      if (compare.compare(boundaries.get(mid), value) <= 0) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low;
  }

  /**
   * Interleaves bucket ids, column 0's bit first at each level.
   *
   * @throws IllegalArgumentException for no or more than {@link SafetyLimits#MAX_Z_ORDER_COLUMNS}
   *     columns (40 key bits fit a BIGINT with room to spare), or a bucket outside {@code [0,
   *     BUCKETS)}
   */
  public static long interleave(int... buckets) {
    checkColumns(buckets.length);
    long key = 0;
    for (int bit = BITS_PER_COLUMN - 1; bit >= 0; bit--) {
      for (int bucket : buckets) {
        if (bucket < 0 || bucket >= BUCKETS) {
          throw new IllegalArgumentException("bucket " + bucket + " outside [0, " + BUCKETS + ")");
        }
        key = (key << 1) | ((bucket >> bit) & 1);
      }
    }
    return key;
  }

  /**
   * The same interleaving as a SQL BIGINT expression over bucket-id expressions (DuckDB's {@code
   * >>}, {@code <<}, {@code &}, {@code |}), one per column in order.
   */
  public static String sql(List<String> bucketExpressions) {
    int columns = bucketExpressions.size();
    checkColumns(columns);
    List<String> terms = new ArrayList<>();
    for (int bit = BITS_PER_COLUMN - 1; bit >= 0; bit--) {
      for (int j = 0; j < columns; j++) {
        int position = bit * columns + (columns - 1 - j);
        terms.add(
            "(((CAST("
                + bucketExpressions.get(j)
                + " AS BIGINT) >> "
                + bit
                + ") & 1) << "
                + position
                + ")");
      }
    }
    return "(" + String.join(" | ", terms) + ")";
  }

  private static void checkColumns(int columns) {
    if (columns < 1 || columns > SafetyLimits.MAX_Z_ORDER_COLUMNS) {
      throw new IllegalArgumentException(
          "Z-order takes 1 to " + SafetyLimits.MAX_Z_ORDER_COLUMNS + " columns, not " + columns);
    }
  }
}
