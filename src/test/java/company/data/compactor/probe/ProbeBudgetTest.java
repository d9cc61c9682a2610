package company.data.compactor.probe;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProbeBudgetTest {

  @Test
  void
      tenPercentOfTheTimeSoFar_plusThePlannedBytesReadAndHalfOfThemWrittenAtTheWarmUpsRate_plusTheLocalRewrite() {
    // 2 s so far; 1,000 MB planned, read at the warm-up's 10 MB per 100 ms: 10 s; half of them
    // uploaded at that rate: 5 s; rewritten and verified locally at 250 MiB/s: 3.815 s.
    long total = new ProbeBudget(10, 0).totalMs(2_000, 1_000_000_000L, 10_000_000L, 100.0);

    assertThat(total).isEqualTo(2_081);
    assertThat(ProbeBudget.beforeShareMs(total)).isEqualTo(1_040);
  }

  @Test
  void onS3_aWarmUpTooSlowForTheWholeSample_leavesTheBytesOfAPrefixThatFits() {
    // bench/RESULTS.md's S3 entry: the warm-up over 37 MB took 645 ms of a 1,000 ms share; the
    // whole sample again (645 ms) does not fit the 355 ms left, 80 % of them at its rate does.
    long sample = 37_000_000L;

    long fits = ProbeBudget.bytesThatFit(sample, 645.0, 355);

    assertThat(fits).isEqualTo(16_291_472L);
    assertThat(fits * 645.0 / sample).isLessThanOrEqualTo(355);
    assertThat(ProbeBudget.bytesThatFit(sample, 300.0, 355)).isEqualTo(sample);
    assertThat(ProbeBudget.bytesThatFit(sample, 645.0, -20)).isZero();
    assertThat(ProbeBudget.bytesThatFit(0, 5.0, 100)).isZero();
  }

  @Test
  void theFloorApplies_whenTheEstimateIsSmall_andNothingPlannedMeansTheTimeSoFar() {
    assertThat(new ProbeBudget(10, 2_000).totalMs(3_000, 0, 10_000, 50.0)).isEqualTo(2_000);
    assertThat(ProbeBudget.estimatedRunMs(3_000, 0, 10_000, 50.0)).isEqualTo(3_000.0);
    assertThat(new ProbeBudget(50, 0).totalMs(3_000, 0, 0, 0)).isEqualTo(1_500);
  }

  @Test
  void aPassIsExpectedToTakeTheWarmUpRoundsTime_scaledByItsBytes_neverLess() {
    // The warm-up read one round, 4 MB, in 200 ms: a 37 MB sample at that rate takes 1,850 ms.
    assertThat(ProbeBudget.passMs(37_000_000L, 4_000_000L, 200.0)).isEqualTo(1_850.0);
    assertThat(ProbeBudget.passMs(2_000_000L, 4_000_000L, 200.0)).isEqualTo(200.0);
    assertThat(ProbeBudget.passMs(37_000_000L, 0, 200.0)).isEqualTo(200.0);
  }
}
