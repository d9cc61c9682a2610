package company.data.compactor.compact.exec;

import company.data.compactor.compact.CompactionTimings;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Adds up the time a compaction spends in each stage, from whichever thread does the work (the
 * prefetch and upload threads too), and yields it as {@link CompactionTimings}.
 */
final class StageClock {

  /** A stage of a bin's way from inputs to a commit. */
  enum Stage {
    DOWNLOAD,
    REWRITE,
    VERIFY,
    UPLOAD,
    COMMIT
  }

  private final AtomicLongArray nanos = new AtomicLongArray(Stage.values().length);

  /** Adds the time since {@code startedNanos} ({@link System#nanoTime()}) to {@code stage}. */
  void since(Stage stage, long startedNanos) {
    nanos.addAndGet(stage.ordinal(), Math.max(0, System.nanoTime() - startedNanos));
  }

  CompactionTimings timings() {
    return new CompactionTimings(
        nanos.get(Stage.DOWNLOAD.ordinal()),
        nanos.get(Stage.REWRITE.ordinal()),
        nanos.get(Stage.VERIFY.ordinal()),
        nanos.get(Stage.UPLOAD.ordinal()),
        nanos.get(Stage.COMMIT.ordinal()));
  }
}
