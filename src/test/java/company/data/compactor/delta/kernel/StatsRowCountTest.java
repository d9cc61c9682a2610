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
  void theLeadingCountShortcut_agreesWithTheParserOnEveryEdge() {
    assertThat(KernelDeltaTables.numRecords("{\"numRecords\":8}")).hasValue(8);
    assertThat(KernelDeltaTables.numRecords("{\"numRecords\":0,\"minValues\":{}}")).hasValue(0);
    assertThat(KernelDeltaTables.numRecords("{\"numRecords\":9223372036854775807}"))
        .as("more digits than the shortcut reads: left to the parser")
        .hasValue(Long.MAX_VALUE);
    assertThat(KernelDeltaTables.numRecords("{\"numRecords\":12e3}")).isEmpty();
    assertThat(KernelDeltaTables.numRecords("{\"numRecords\":-1}")).hasValue(-1);
    assertThat(KernelDeltaTables.numRecords("{\"numRecords\":5 ,\"x\":1}")).hasValue(5);
    assertThat(KernelDeltaTables.numRecords("{\"numRecords\":12"))
        .as("cut short after the digits: the parser's answer, as before the shortcut")
        .hasValue(12);
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
