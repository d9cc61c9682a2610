package company.data.compactor.vacuum;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import company.data.compactor.error.CompactorException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code delta.deletedFileRetentionDuration} read with Delta's interval grammar; fail closed. */
class RetentionTest {

  private static final String PROPERTY = "delta.deletedFileRetentionDuration";

  private static Retention ofTable(String value) {
    return Retention.effective(168, Map.of(PROPERTY, value));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "interval 2 weeks 2 days          | PT384H",
        "interval 1000000000 milliseconds | PT277H46M40S",
        "interval 720 hours 1 minute      | PT720H1M",
        "INTERVAL 8 DAYS                  | PT192H",
        "8 days                           | PT192H",
        "'  interval   +8   days  '       | PT192H",
        "interval 1 week 1 day            | PT192H",
        "interval 2 weeks -1 day          | PT312H",
        "interval 1 week 1 day 1 hour 1 minute 1 second 1 millisecond 1 microsecond | PT193H1M1.001001S",
        "interval 604800.5 seconds        | PT168H0.5S",
        "interval 691200000000 microseconds | PT192H",
      })
  void validIntervals_longerThanTheFloor_win(String value, String expected) {
    assertThat(ofTable(value)).isEqualTo(new Retention(Duration.parse(expected), "table_property"));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "interval 1 month            | month is not supported",
        "interval 1 year             | year is not supported",
        "interval 1.5 days           | 'days' cannot have a fractional part",
        "interval 7days              | invalid value '7days'",
        "interval                    | no <number> <unit> pair",
        "\"\"                          | no <number> <unit> pair",
        "interval 1 fortnight        | invalid unit 'fortnight'",
        "interval 7 days,            | invalid unit 'days,'",
        "forever                     | invalid value 'forever'",
        "interval -8 days            | a negative interval",
        "interval 1 day 2            | a number without a unit",
      })
  void anIntervalThatDoesNotParse_refusesVacuum_namingThePropertyAndValue(
      String value, String why) {
    assertThatThrownBy(() -> ofTable(value))
        .isInstanceOf(CompactorException.class)
        .satisfies(
            e ->
                assertThat(((CompactorException) e).kind())
                    .isEqualTo(CompactorException.Kind.REFUSED))
        .hasMessage(
            "Refused to vacuum: the table property delta.deletedFileRetentionDuration = '"
                + value
                + "' is not a Delta interval ("
                + why
                + "). Nothing was deleted. Set it to an interval such as"
                + " 'interval 14 days' (units: week, day, hour, minute, second, millisecond, microsecond), or unset it.");
  }

  @Test
  void hugeIntervals_saturate_andMeanKeepEverything() {
    Retention huge = ofTable("interval 99999999999999999999 days");
    assertThat(huge.duration()).isEqualTo(Retention.LONGEST);
    assertThat(huge.source()).isEqualTo("table_property");
    assertThat(ofTable("interval 106751992 days").duration())
        .as("past Long micros")
        .isEqualTo(Retention.LONGEST);
    assertThat(ofTable("interval 9223372036854775807 weeks 9223372036854775807 days").duration())
        .isEqualTo(Retention.LONGEST);
    assertThat(huge.hours()).isPositive();
  }

  @Test
  void theFloorStillWins_overShorterValidIntervals() {
    assertThat(ofTable("interval 1 hour")).isEqualTo(new Retention(Retention.FLOOR, "floor"));
    assertThat(ofTable("interval 0 seconds")).isEqualTo(new Retention(Retention.FLOOR, "floor"));
  }
}
