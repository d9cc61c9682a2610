package company.data.compactor.fanout;

import company.data.compactor.compact.CompactionPlan;
import java.time.Duration;
import java.util.Locale;

/**
 * How much rewriting one invocation may take on, and the pure decision whether a plan fits it. The
 * estimate is the plan's input bytes over the rewrite throughput the bench measured ({@code
 * bench/RESULTS.md}: about 40 MB/s on 2 cores from local disk), against the part of Lambda's 15
 * minutes left for compaction once start, inspection, the probes and vacuum are paid for.
 *
 * @param rewriteMbPerSecond input megabytes rewritten per second of one invocation (> 0)
 * @param compactionBudget the wall time one invocation may spend compacting (> 0)
 */
public record ExecutionBudget(double rewriteMbPerSecond, Duration compactionBudget) {

  /** The bench's local-disk throughput of the whole rewrite, 2 cores (MB/s). */
  public static final double DEFAULT_REWRITE_MB_PER_SECOND = 40.0;

  /** Ten of Lambda's fifteen minutes; the rest is start, inspection, probes, vacuum, report. */
  public static final Duration DEFAULT_COMPACTION_BUDGET = Duration.ofMinutes(10);

  public ExecutionBudget {
    if (!(rewriteMbPerSecond > 0) || Double.isInfinite(rewriteMbPerSecond)) {
      throw new IllegalArgumentException("rewrite MB/s must be a positive number");
    }
    if (compactionBudget.isNegative() || compactionBudget.isZero()) {
      throw new IllegalArgumentException("the compaction budget must be positive");
    }
  }

  /** The defaults above. */
  public static ExecutionBudget defaults() {
    return new ExecutionBudget(DEFAULT_REWRITE_MB_PER_SECOND, DEFAULT_COMPACTION_BUDGET);
  }

  /**
   * The decision for {@code plan}.
   *
   * @param mode where the plan runs
   * @param estimatedSeconds the estimated compaction time in one invocation
   * @param budgetSeconds the budget it was compared with
   * @param reason the decision in words, for the log and the report
   */
  public record Decision(
      ExecutionMode mode, double estimatedSeconds, double budgetSeconds, String reason) {}

  /** Whether {@code plan} needs the state machine: its estimated rewrite exceeds the budget. */
  public Decision decide(CompactionPlan plan) {
    return decide(plan.bytesToRewrite());
  }

  /** As {@link #decide(CompactionPlan)}, for {@code bytesToRewrite} input bytes. */
  public Decision decide(long bytesToRewrite) {
    double estimated = bytesToRewrite / 1048576.0 / rewriteMbPerSecond;
    double budget = compactionBudget.toMillis() / 1000.0;
    boolean exceeds = estimated > budget;
    String reason =
        String.format(
            Locale.ROOT,
            "%.1f MB to rewrite at %.1f MB/s is about %.0f s, %s the %.0f s one invocation may"
                + " spend compacting",
            bytesToRewrite / 1048576.0,
            rewriteMbPerSecond,
            estimated,
            exceeds ? "over" : "within",
            budget);
    return new Decision(
        exceeds ? ExecutionMode.STATE_MACHINE : ExecutionMode.IN_PROCESS,
        estimated,
        budget,
        reason);
  }
}
