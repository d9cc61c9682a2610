package company.data.compactor.delta.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class StatsRowCountTest {

  @Test
  void readsTheTopLevelCountWhereverItStands() {
    assertThat(KernelDeltaTables.numRecords("{\"numRecords\":42,\"minValues\":{\"a\":1}}"))
        .hasValue(42);
    assertThat(
            KernelDeltaTables.numRecords(
                "{\"minValues\":{\"numRecords\":7,\"s\":{\"x\":[1,2]}},\"maxValues\":{},\"numRecords\":3000000000}"))
        .hasValue(3_000_000_000L);
  }

  @Test
  void aNestedFieldOfTheSameNameIsNotTheCount() {
    assertThat(KernelDeltaTables.numRecords("{\"minValues\":{\"numRecords\":7},\"nullCount\":{}}"))
        .isEmpty();
  }

  @Test
  void missingNonIntegerOrBrokenStatsGiveNoCount() {
    assertThat(KernelDeltaTables.numRecords("{}")).isEqualTo(OptionalLong.empty());
    assertThat(KernelDeltaTables.numRecords("{\"numRecords\":\"12\"}")).isEmpty();
    assertThat(KernelDeltaTables.numRecords("{\"numRecords\":1.5}")).isEmpty();
    assertThat(KernelDeltaTables.numRecords("{\"numRecords\":")).isEmpty();
    assertThat(KernelDeltaTables.numRecords("[1]")).isEmpty();
  }
}
