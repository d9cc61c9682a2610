package company.data.compactor.compact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import company.data.compactor.model.Column;
import company.data.compactor.model.PartitionValues;
import company.data.compactor.model.TableSchema;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PartitionFilterTest {

  private static final TableSchema SCHEMA =
      new TableSchema(
          List.of(
              new Column("id", "long", true),
              new Column("event_date", "string", true),
              new Column("region", "string", true),
              new Column("bucket", "integer", true)),
          List.of("event_date", "region", "bucket"));

  private static PartitionValues values(String date, String region, String bucket) {
    Map<String, String> map = new HashMap<>();
    map.put("event_date", date);
    map.put("region", region);
    map.put("bucket", bucket);
    return PartitionValues.of(SCHEMA.partitionColumns(), map);
  }

  private static boolean matches(String filter, PartitionValues values) {
    return PartitionFilter.parse(filter, SCHEMA).matches(values);
  }

  @Test
  void comparisonsOnText() {
    PartitionValues v = values("2026-10-18", "eu", "7");
    assertThat(matches("event_date >= '2026-10-18'", v)).isTrue();
    assertThat(matches("event_date > '2026-10-18'", v)).isFalse();
    assertThat(matches("event_date < '2026-10-19' AND region = 'eu'", v)).isTrue();
    assertThat(matches("region != 'eu' OR event_date = '2026-10-18'", v)).isTrue();
    assertThat(matches("region <> 'eu'", v)).isFalse();
  }

  @Test
  void numericPartitionColumns_compareAsNumbers() {
    assertThat(matches("bucket > 10", values("d", "eu", "9"))).isFalse();
    assertThat(matches("bucket < 10", values("d", "eu", "9"))).isTrue();
    assertThat(matches("bucket = 9.0", values("d", "eu", "9"))).isTrue();
  }

  @Test
  void inNotInAndNulls() {
    assertThat(matches("region IN ('eu', 'us')", values("d", "us", "1"))).isTrue();
    assertThat(matches("region NOT IN ('eu', 'us')", values("d", "us", "1"))).isFalse();
    assertThat(matches("region IS NULL", values("d", null, "1"))).isTrue();
    assertThat(matches("region IS NOT NULL", values("d", null, "1"))).isFalse();
    assertThat(matches("region = 'eu'", values("d", null, "1")))
        .as("NULL compares false")
        .isFalse();
    assertThat(matches("region != 'eu'", values("d", null, "1")))
        .as("NULL compares false")
        .isFalse();
  }

  @Test
  void quotesParenthesesNotAndCase() {
    PartitionValues v = values("it's", "eu", "1");
    assertThat(matches("`event_date` = 'it''s'", v)).isTrue();
    assertThat(matches("not (region = 'us' or region = 'ap') and \"bucket\" in (1)", v)).isTrue();
  }

  @Test
  void literalsAreValuesNeverSql() {
    PartitionValues v = values("x' OR '1'='1", "eu", "1");
    assertThat(matches("event_date = 'x'' OR ''1''=''1'", v)).isTrue();
    assertThat(matches("event_date = 'x'", v)).isFalse();
  }

  @Test
  void refusesNonPartitionAndUnknownColumns_namingThem() {
    assertThatThrownBy(() -> PartitionFilter.parse("id = 1", SCHEMA))
        .hasMessage(
            "id is not a partition column; a partition filter may only use event_date, region, bucket");
    assertThatThrownBy(() -> PartitionFilter.parse("colour = 'red'", SCHEMA))
        .hasMessageStartingWith("unknown column colour at position 1");
  }

  @Test
  void refusesSyntaxErrors_sayingWhereAndWhat() {
    assertThatThrownBy(() -> PartitionFilter.parse("event_date >= ", SCHEMA))
        .hasMessage(
            "expected a literal ('text' or a number) at position 15 of \"event_date >= \", found the end");
    assertThatThrownBy(() -> PartitionFilter.parse("event_date ~ 'x'", SCHEMA))
        .hasMessageStartingWith(
            "expected a comparison (=, !=, <>, <, <=, >, >=), IN or IS at position 12");
    assertThatThrownBy(() -> PartitionFilter.parse("event_date = 'x' region = 'y'", SCHEMA))
        .hasMessageStartingWith("expected AND, OR or the end at position 18");
    assertThatThrownBy(() -> PartitionFilter.parse("bucket = 'seven'", SCHEMA))
        .hasMessageContaining("bucket is numeric, but 'seven'");
    assertThatThrownBy(() -> PartitionFilter.parse("event_date = 'open", SCHEMA))
        .hasMessageStartingWith("unterminated string");
  }

  @Test
  void blankMeansAllPartitions() {
    assertThat(PartitionFilter.parse("  ", SCHEMA).isAll()).isTrue();
    assertThat(PartitionFilter.all().matches(values(null, null, null))).isTrue();
  }

  @Test
  void deeplyNestedParentheses_areRefusedNamingTheLimit_notAStackOverflow() {
    String nested = "(".repeat(3000) + "bucket = 1" + ")".repeat(3000);

    assertThatThrownBy(() -> PartitionFilter.parse(nested, SCHEMA))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("must nest parentheses at most 32 deep (found 3000)");
  }

  @Test
  void nestingUpToTheLimit_parses_andParenthesesInQuotesDoNotCount() {
    String nested = "(".repeat(32) + "bucket = 1" + ")".repeat(32);
    assertThat(matches(nested, values("2026-10-18", "eu", "1"))).isTrue();
    String quoted = "region = '" + "(".repeat(100) + "'";
    assertThat(matches(quoted, values("2026-10-18", "(".repeat(100), "1"))).isTrue();
    assertThatThrownBy(
            () -> PartitionFilter.parse("(".repeat(33) + "bucket = 1" + ")".repeat(33), SCHEMA))
        .hasMessage("must nest parentheses at most 32 deep (found 33)");
  }

  @Test
  void filtersLongerThanTheLimit_areRefused() {
    String longFilter = "bucket IN (" + "1, ".repeat(3400) + "2)";

    assertThatThrownBy(() -> PartitionFilter.parse(longFilter, SCHEMA))
        .hasMessage("must be at most 10000 characters long (found " + longFilter.length() + ")");
  }

  @Test
  void longChainsOfNotAndOr_withinTheLength_parseAndEvaluateWithoutDeepRecursion() {
    PartitionValues v = values("2026-10-18", "eu", "1");
    assertThat(matches("NOT ".repeat(2400) + "bucket = 1", v)).isTrue();
    assertThat(matches("NOT ".repeat(2401) + "bucket = 1", v)).isFalse();
    assertThat(matches("bucket = 2 OR ".repeat(700) + "bucket = 1", v)).isTrue();
    assertThat(matches("bucket = 1 AND ".repeat(600) + "bucket = 2", v)).isFalse();
  }
}
