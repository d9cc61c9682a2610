package company.data.compactor.compact.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SparkCalendarTest {

  private static final String VERSION = "org.apache.spark.version";

  @Test
  void outputs_carryTheNewestSpark3Version_ofInputsWrittenProleptic() {
    assertThat(
            SparkCalendar.outputKeys(
                List.of(
                    Map.of(VERSION, "3.4.1"),
                    Map.of(VERSION, "3.5.7"),
                    Map.of(),
                    Map.of(VERSION, "3.10.0-amzn-1"))))
        .isEqualTo(Map.of(VERSION, "3.10.0-amzn-1"));
  }

  @Test
  void outputs_carryNothing_whenNoInputIsAProlepticSpark3File() {
    assertThat(SparkCalendar.outputKeys(List.of(Map.of(), Map.of()))).isEmpty();
    assertThat(SparkCalendar.outputKeys(List.of(Map.of(VERSION, "2.4.8")))).isEmpty();
    assertThat(
            SparkCalendar.outputKeys(
                List.of(Map.of(VERSION, "3.5.7", "org.apache.spark.legacyDateTime", ""))))
        .isEmpty();
    assertThat(SparkCalendar.outputKeys(List.of(Map.of(VERSION, "unknown")))).isEmpty();
  }

  @Test
  void copyOption_isDuckDbsKvMetadata_quoted() {
    assertThat(SparkCalendar.copyOption(Map.of())).isEmpty();
    assertThat(SparkCalendar.copyOption(Map.of(VERSION, "3.5.7'x")))
        .isEqualTo(", KV_METADATA {'org.apache.spark.version': '3.5.7''x'}");
  }
}
