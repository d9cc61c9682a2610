package company.data.compactor.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class PartitionValuesTest {

  private static PartitionValues of(String a, String b) {
    Map<String, String> values = new HashMap<>();
    values.put("a", a);
    values.put("b", b);
    return PartitionValues.of(List.of("a", "b"), values);
  }

  @Test
  void label_escapesLikeHivePaths_soValuesThatOnceReadAlikeNoLongerDo() {
    PartitionValues first = of("x/b=y", "z");
    PartitionValues second = of("x", "y/b=z");

    assertThat(first.label()).isEqualTo("a=x%2Fb%3Dy/b=z");
    assertThat(second.label()).isEqualTo("a=x/b=y%2Fb%3Dz");
    assertThat(first).isNotEqualTo(second);
  }

  @Test
  void label_escapesPercentControlAndHiveSpecials_keepsUnicodeAndSpaces() {
    assertThat(of("100% \"q\" #1 'a' *?:\\{[]^", "tab\there é").label())
        .isEqualTo("a=100%25 %22q%22 %231 %27a%27 %2A%3F%3A%5C%7B%5B%5D%5E/b=tab%09here é");
  }

  @Test
  void nullIsDistinctFromTheEmptyStringAndFromTheLiteralNullLabel() {
    PartitionValues none = of(null, "z");
    PartitionValues empty = of("", "z");
    PartitionValues literal = of(PartitionValues.NULL_LABEL, "z");

    assertThat(none).isNotEqualTo(empty).isNotEqualTo(literal);
    assertThat(none.label())
        .isEqualTo("a=__HIVE_DEFAULT_PARTITION__/b=z")
        .isEqualTo(literal.label());
    assertThat(empty.label()).isEqualTo("a=/b=z");
    TreeSet<PartitionValues> ordered = new TreeSet<>(PartitionValues.ORDER);
    ordered.addAll(
        List.of(literal, empty, none, of(null, null), of(PartitionValues.NULL_LABEL, null)));
    assertThat(ordered).hasSize(5);
    assertThat(ordered.first()).isEqualTo(empty);
  }

  @Test
  void directory_isWhereSparkWritesThePartition() {
    assertThat(of("a/b=c%d e:ü", null).directory())
        .isEqualTo("a=a%2Fb%3Dc%25d e%3Aü/b=__HIVE_DEFAULT_PARTITION__");
    assertThat(of("", "x").directory()).isEqualTo("a=__HIVE_DEFAULT_PARTITION__/b=x");
    assertThat(PartitionValues.none().directory()).isEmpty();
  }
}
