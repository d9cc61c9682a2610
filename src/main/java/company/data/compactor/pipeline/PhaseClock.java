package company.data.compactor.pipeline;

import company.data.compactor.compact.CompactionTimings;
import company.data.compactor.report.PhaseTimings;
import company.data.compactor.report.PhaseTimings.Phase;
import java.util.function.Supplier;

/**
 * Times one command's phases for {@code timings_ms}: in nanoseconds from {@link System#nanoTime()}
 * (elapsed time, not the injected wall clock that dates the run), rounded down to milliseconds only
 * at the end, so phases that run one after another never add up to more than {@code wall}.
 */
final class PhaseClock {

  private final long startedNanos = System.nanoTime();
  private final long[] nanos = new long[Phase.values().length];

  /** Runs {@code work}, adding its time to {@code phase} (also when it throws). */
  <T> T time(Phase phase, Supplier<T> work) {
    long t = System.nanoTime();
    try {
      return work.get();
    } finally {
      add(phase, System.nanoTime() - t);
    }
  }

  /** Adds a compaction's own phases. */
  void add(CompactionTimings compaction) {
    add(Phase.DOWNLOAD, compaction.downloadNanos());
    add(Phase.REWRITE, compaction.rewriteNanos());
    add(Phase.VERIFY, compaction.verifyNanos());
    add(Phase.UPLOAD, compaction.uploadNanos());
    add(Phase.COMMIT, compaction.commitNanos());
  }

  private void add(Phase phase, long elapsedNanos) {
    nanos[phase.ordinal()] += Math.max(0, elapsedNanos);
  }

  /** The phases so far, and {@code wall} from this clock's creation until now. */
  PhaseTimings timings() {
    long wallNanos = System.nanoTime() - startedNanos;
    PhaseTimings timings = PhaseTimings.NONE.plus(Phase.WALL, wallNanos / 1_000_000);
    for (Phase phase : Phase.values()) {
      if (phase != Phase.WALL) {
        timings = timings.plus(phase, nanos[phase.ordinal()] / 1_000_000);
      }
    }
    return timings;
  }
}
