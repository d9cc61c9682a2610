package company.data.compactor.probe;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProbeBudgetTest {

  @Test
  void tenPercentOfTheTimeSoFar_plusThePlannedBytesAtTheWarmUpsRate() {
    // 2 s so far; 1,000 MB planned read at the warm-up's 10 MB per 100 ms: 10 s more.
    long total = new ProbeBudget(10, 0).totalMs(2_000, 1_000_000_000L, 10_000_000L, 100.0);

    assertThat(total).isEqualTo(1_200);
    assertThat(ProbeBudget.beforeShareMs(total)).isEqualTo(600);
  }

  @Test
  void theFloorApplies_whenTheEstimateIsSmall_andNothingPlannedMeansTheTimeSoFar() {
    assertThat(new ProbeBudget(10, 2_000).totalMs(3_000, 0, 10_000, 50.0)).isEqualTo(2_000);
    assertThat(ProbeBudget.estimatedRunMs(3_000, 0, 10_000, 50.0)).isEqualTo(3_000.0);
    assertThat(new ProbeBudget(50, 0).totalMs(3_000, 0, 0, 0)).isEqualTo(1_500);
  }
}
