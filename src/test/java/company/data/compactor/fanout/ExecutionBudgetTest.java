package company.data.compactor.fanout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The in-process versus state-machine decision: the plan's bytes at the bench's MB/s. */
class ExecutionBudgetTest {

  private static final long MB = 1_048_576L;

  @Test
  void aPlanWithinTheBudget_runsInProcess() {
    ExecutionBudget.Decision d =
        new ExecutionBudget(40, Duration.ofSeconds(600)).decide(24_000 * MB);

    assertThat(d.mode()).isEqualTo(ExecutionMode.IN_PROCESS);
    assertThat(d.estimatedSeconds()).isEqualTo(600.0);
    assertThat(d.reason())
        .isEqualTo(
            "24000.0 MB to rewrite at 40.0 MB/s is about 600 s, within the 600 s one invocation"
                + " may spend compacting");
  }

  @Test
  void aPlanOverTheBudget_goesToTheStateMachine() {
    ExecutionBudget.Decision d =
        new ExecutionBudget(40, Duration.ofSeconds(600)).decide(24_001 * MB);

    assertThat(d.mode()).isEqualTo(ExecutionMode.STATE_MACHINE);
    assertThat(d.reason()).contains("over the 600 s");
    assertThat(d.mode().label()).isEqualTo("state_machine");
  }

  @Test
  void theDefaults_areTheBenchsThroughputAndTenMinutes() {
    assertThat(ExecutionBudget.defaults())
        .isEqualTo(new ExecutionBudget(40.0, Duration.ofMinutes(10)));
  }

  @Test
  void aBudgetThatCannotDecide_isRefused() {
    assertThatThrownBy(() -> new ExecutionBudget(0, Duration.ofSeconds(1)))
        .hasMessage("rewrite MB/s must be a positive number");
    assertThatThrownBy(() -> new ExecutionBudget(Double.NaN, Duration.ofSeconds(1)))
        .hasMessage("rewrite MB/s must be a positive number");
    assertThatThrownBy(() -> new ExecutionBudget(40, Duration.ZERO))
        .hasMessage("the compaction budget must be positive");
  }
}
