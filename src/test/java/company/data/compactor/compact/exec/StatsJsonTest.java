package company.data.compactor.compact.exec;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.model.Column;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

class StatsJsonTest {

  private static ColumnStats stats(String name, String type, Object min, Object max, long nulls) {
    return new ColumnStats(
        new StatsColumns.Leaf(List.of(name), new Column(name, type, true)), min, max, nulls);
  }

  @Test
  void format_writesDeltaStatsWithTypedBounds() {
    String json =
        StatsJson.format(
            3,
            List.of(
                stats("id", "long", 1L, 9L, 0),
                stats(
                    "amount", "decimal(10,2)", new BigDecimal("-1.50"), new BigDecimal("12.25"), 1),
                stats("day", "date", "1969-12-31", "2026-10-17", 0),
                stats("flag", "boolean", null, null, 2)));

    assertThat(json)
        .isEqualTo(
            "{\"numRecords\":3,"
                + "\"minValues\":{\"id\":1,\"amount\":-1.50,\"day\":\"1969-12-31\"},"
                + "\"maxValues\":{\"id\":9,\"amount\":12.25,\"day\":\"2026-10-17\"},"
                + "\"nullCount\":{\"id\":0,\"amount\":1,\"day\":0,\"flag\":2}}");
  }

  @Test
  void timestamps_minIsFlooredAndMaxCeiledToTheMillisecond() {
    long micros = 1_700_000_000_123_456L;
    String json =
        StatsJson.format(
            1,
            List.of(
                stats("ts", "timestamp", micros, micros, 0),
                stats("n", "timestamp_ntz", -1L, 1000L, 0)));

    assertThat(json)
        .contains(
            "\"minValues\":{\"ts\":\"2023-11-14T22:13:20.123Z\",\"n\":\"1969-12-31T23:59:59.999\"}");
    assertThat(json)
        .contains(
            "\"maxValues\":{\"ts\":\"2023-11-14T22:13:20.124Z\",\"n\":\"1970-01-01T00:00:00.001\"}");
  }

  @Test
  void strings_areCutTo32CodePoints_andACutMaximumStaysAnUpperBound() {
    String shortValue = "abc";
    String longValue = "é".repeat(40);

    assertThat(StatsJson.lowerBound(shortValue)).isEqualTo("abc");
    assertThat(StatsJson.upperBound(shortValue)).isEqualTo("abc");
    assertThat(StatsJson.lowerBound(longValue)).isEqualTo("é".repeat(32));
    String upper = StatsJson.upperBound(longValue);
    assertThat(upper).isEqualTo("é".repeat(32) + new String(Character.toChars(0x10FFFF)));
    assertThat(upper.compareTo(longValue)).isPositive();
    String emoji = "😀".repeat(33);
    assertThat(StatsJson.lowerBound(emoji).codePointCount(0, StatsJson.lowerBound(emoji).length()))
        .isEqualTo(32);
  }

  @Test
  void aCutMaximumFollowedByU10FFFF_keepsThatRun_andStaysAboveTheValueInUtf8Order() {
    String max = new String(Character.toChars(0x10FFFF));
    for (String value :
        List.of(
            "a".repeat(31) + max + max + "b",
            "a".repeat(32) + max + max + max + "b",
            "a".repeat(32) + max,
            "a".repeat(32) + max + max)) {
      String upper = StatsJson.upperBound(value);
      assertThat(utf8Compare(upper, value)).as("bound of %s", value).isGreaterThanOrEqualTo(0);
    }
    assertThat(StatsJson.upperBound("a".repeat(32) + max + max))
        .isEqualTo("a".repeat(32) + max + max);
  }

  @Test
  void zeroBounds_areWidened_soNeitherZeroIsSkipped() {
    assertThat(StatsJson.zeroWidened(0.0, "double", false)).isEqualTo(-Double.MIN_VALUE);
    assertThat(StatsJson.zeroWidened(-0.0, "double", false)).isEqualTo(-Double.MIN_VALUE);
    assertThat((float) StatsJson.zeroWidened(-0.0, "float", false)).isEqualTo(-Float.MIN_VALUE);
    assertThat(Double.doubleToRawLongBits(StatsJson.zeroWidened(-0.0, "double", true)))
        .isEqualTo(Double.doubleToRawLongBits(0.0));
    assertThat(StatsJson.zeroWidened(-2.5, "double", false)).isEqualTo(-2.5);
    assertThat(StatsJson.zeroWidened(-2.5, "double", true)).isEqualTo(-2.5);
    String json = StatsJson.format(2, List.of(stats("d", "double", 0.0, -0.0, 0)));
    assertThat(json)
        .contains("\"minValues\":{\"d\":-4.9E-324}")
        .contains("\"maxValues\":{\"d\":0.0}");
  }

  private static int utf8Compare(String a, String b) {
    return java.util.Arrays.compareUnsigned(
        a.getBytes(java.nio.charset.StandardCharsets.UTF_8),
        b.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  @Test
  void columnsWithoutBounds_keepOnlyTheirNullCount() {
    String json = StatsJson.format(2, List.of(stats("d", "double", null, null, 1)));

    assertThat(json)
        .isEqualTo("{\"numRecords\":2,\"minValues\":{},\"maxValues\":{},\"nullCount\":{\"d\":1}}");
  }

  @Test
  void datesAndTimestampsOutsideYearsOneTo9999_getNoBounds_soNoRowIsSkippedWrongly() {
    long yearMinus249 =
        java.time.LocalDateTime.of(-249, 10, 15, 19, 33).toEpochSecond(java.time.ZoneOffset.UTC)
            * 1_000_000L;
    long year1 =
        java.time.LocalDateTime.of(1, 1, 1, 0, 0).toEpochSecond(java.time.ZoneOffset.UTC)
            * 1_000_000L;
    String json =
        StatsJson.format(
            3,
            List.of(
                stats("d", "date", "0222-09-04 (BC)", "2020-01-01", 0),
                stats("ts", "timestamp", yearMinus249, 0L, 0),
                stats("ok", "timestamp", year1, 0L, 0),
                stats("far", "date", "0001-01-01", "10000-01-01", 0)));

    assertThat(json)
        .isEqualTo(
            "{\"numRecords\":3,\"minValues\":{\"ok\":\"0001-01-01T00:00:00.000Z\"},"
                + "\"maxValues\":{\"ok\":\"1970-01-01T00:00:00.000Z\"},\"nullCount\":{\"d\":0,\"ts\":0,\"ok\":0,\"far\":0}}");
  }
}
