package company.data.compactor.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A part of the report converts to the object it is under its name in the whole report. */
class ReportJsonTest {

  @Test
  void theTimingsAlone_haveTheNamesAndOrderOfTimingsMs() {
    PhaseTimings timings = new PhaseTimings(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 60);

    assertThat(ReportJson.asMap(timings))
        .containsExactly(
            org.assertj.core.api.Assertions.entry("inspect", 1L),
            org.assertj.core.api.Assertions.entry("probe_before", 2L),
            org.assertj.core.api.Assertions.entry("download", 3L),
            org.assertj.core.api.Assertions.entry("rewrite", 4L),
            org.assertj.core.api.Assertions.entry("verify", 5L),
            org.assertj.core.api.Assertions.entry("upload", 6L),
            org.assertj.core.api.Assertions.entry("commit", 7L),
            org.assertj.core.api.Assertions.entry("probe_after", 8L),
            org.assertj.core.api.Assertions.entry("vacuum_plan", 9L),
            org.assertj.core.api.Assertions.entry("deliver", 10L),
            org.assertj.core.api.Assertions.entry("wall", 60L));
  }
}
