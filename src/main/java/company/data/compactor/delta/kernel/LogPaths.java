package company.data.compactor.delta.kernel;

import company.data.compactor.model.TableLocation;
import java.util.function.UnaryOperator;

/**
 * A logged path resolved against one table root by a given resolution (kernel's {@code Path}
 * arithmetic, whose URI parsing costs microseconds per path: a log of 100,000 adds and 100,000
 * removes spent a second in it), answered by concatenation where that provably gives the same
 * string.
 *
 * <p>A <em>plain</em> logged path ({@link #isPlain}: relative, only {@code A-Z a-z 0-9 - _ . =} and
 * {@code /}, no empty, {@code .} or {@code ..} segment) holds nothing a URI escapes, decodes or
 * normalises, so every resolution here appends it to the root unchanged. The root's part is taken
 * from the resolution itself: the answer for a probe path {@code x}, less the {@code x}, checked
 * against a second probe. Any other path, and every path when a probe does not come back as root
 * plus probe, goes through the resolution: an escape, a colon, a dot segment or a path elsewhere is
 * never short-cut.
 */
final class LogPaths {

  private static final String PROBE = "x";
  private static final String SECOND_PROBE = "a_0/b-1.c=2";

  private final UnaryOperator<String> resolution;

  /** What the resolution puts before a plain path; null when it is not a plain prefix. */
  private final String prefix;

  private LogPaths(UnaryOperator<String> resolution) {
    this.resolution = resolution;
    this.prefix = prefixOf(resolution);
  }

  /** Logged paths resolved by {@code resolution}, short-cut where that changes nothing. */
  static LogPaths resolvedBy(UnaryOperator<String> resolution) {
    return new LogPaths(resolution);
  }

  /** {@code logged} as the resolution resolves it. */
  String resolve(String logged) {
    return prefix != null && isPlain(logged) ? prefix + logged : resolution.apply(logged);
  }

  /** Whether the short cut is in use (false when the root's resolution is not a plain prefix). */
  boolean shortCuts() {
    return prefix != null;
  }

  private static String prefixOf(UnaryOperator<String> resolution) {
    try {
      String probed = resolution.apply(PROBE);
      if (probed == null || !probed.endsWith("/" + PROBE)) {
        return null;
      }
      String prefix = probed.substring(0, probed.length() - PROBE.length());
      return (prefix + SECOND_PROBE).equals(resolution.apply(SECOND_PROBE)) ? prefix : null;
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** Whether {@code logged} is plain ({@link TableLocation#isPlainRelativePath}). */
  static boolean isPlain(String logged) {
    return TableLocation.isPlainRelativePath(logged);
  }
}
