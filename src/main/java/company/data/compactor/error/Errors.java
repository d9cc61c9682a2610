package company.data.compactor.error;

import company.data.compactor.model.TableLocation;
import java.util.List;
import java.util.stream.Collectors;

/** Factory of every {@link CompactorException}, so messages read alike. */
public final class Errors {

  private Errors() {}

  /** The request broke these rules; nothing was touched. */
  public static CompactorException invalidRequest(List<Violation> violations) {
    String detail = violations.stream().map(Violation::describe).collect(Collectors.joining("; "));
    String noun = violations.size() == 1 ? "rule" : "rules";
    return new CompactorException(
        CompactorException.Kind.INVALID_REQUEST,
        "Invalid request, "
            + violations.size()
            + " "
            + noun
            + " broken: "
            + detail
            + ". Nothing was read or written; fix the values and run again.",
        violations,
        null);
  }

  /**
   * The request broke rules that need the table (its columns, its partition columns): the table's
   * log was read to check them, nothing was written.
   */
  public static CompactorException invalidAgainstTable(List<Violation> violations) {
    String detail = violations.stream().map(Violation::describe).collect(Collectors.joining("; "));
    String noun = violations.size() == 1 ? "rule" : "rules";
    return new CompactorException(
        CompactorException.Kind.INVALID_REQUEST,
        "Invalid request, "
            + violations.size()
            + " "
            + noun
            + " broken against the table: "
            + detail
            + ". The table's log was read to check them; nothing was written. Fix the values and"
            + " run again.",
        violations,
        null);
  }

  /**
   * Settings of the deployment (environment variables) broke these rules; nothing was touched. Of
   * kind INVALID_REQUEST: the operator's input, so the command line exits 2.
   */
  public static CompactorException invalidConfiguration(List<Violation> violations) {
    String detail = violations.stream().map(Violation::describe).collect(Collectors.joining("; "));
    String noun = violations.size() == 1 ? "setting" : "settings";
    return new CompactorException(
        CompactorException.Kind.INVALID_REQUEST,
        "Invalid configuration, "
            + violations.size()
            + " "
            + noun
            + " broken: "
            + detail
            + ". Nothing was read or written; fix the setting and run again.",
        violations,
        null);
  }

  /**
   * The table's log references active files outside its root ({@code path (logged as ...)} each);
   * the compactor never reads, writes beside or deletes such files.
   */
  public static CompactorException filesOutsideRoot(
      TableLocation location, List<String> described) {
    return unsupportedTable(
        location,
        "its log references "
            + described.size()
            + " active file"
            + (described.size() == 1 ? "" : "s")
            + " outside the table root: "
            + named(described)
            + ". The compactor never reads, writes beside or deletes files outside the root; nothing was"
            + " read or written. Rewrite the table with paths under its root.");
  }

  /**
   * Compaction would write a partition's output into a directory whose real path (a symbolic link
   * followed) is outside the table root.
   */
  public static CompactorException outputOutsideRoot(
      TableLocation location, String partitionLabel, String directory, String realDirectory) {
    return unsupportedTable(
        location,
        "partition "
            + partitionLabel
            + " would be written to "
            + directory
            + ", which really is "
            + realDirectory
            + ", outside the table root (a symbolic link). The compactor never writes outside the root;"
            + " nothing was written. Replace the link with a directory under the root.");
  }

  /** An error names at most this many paths, then counts the rest. */
  static final int MAX_PATHS_NAMED = 5;

  /** The first {@value #MAX_PATHS_NAMED} of {@code paths}, comma-separated, the rest counted. */
  public static String named(List<String> paths) {
    int shown = Math.min(paths.size(), MAX_PATHS_NAMED);
    return String.join(", ", paths.subList(0, shown))
        + (paths.size() > shown ? " and " + (paths.size() - shown) + " more" : "");
  }

  /**
   * No Delta table at {@code location}. The message advises only what every entry point accepts
   * (checking {@code table_uri}); an entry point adds its own advice (the command line: per
   * command).
   */
  public static CompactorException tableNotFound(TableLocation location, Throwable cause) {
    return new CompactorException(
        CompactorException.Kind.TABLE_NOT_FOUND,
        "No Delta table at "
            + location
            + " (no _delta_log with a readable commit). Check table_uri.",
        List.of(),
        cause);
  }

  /**
   * A checkpoint of the table's log is not a Parquet file (corrupt or truncated), so the table
   * cannot be read through it; {@code files} are the checkpoint files found damaged (empty when
   * they could not be checked), {@code what} what the reader found.
   */
  public static CompactorException corruptCheckpoint(
      TableLocation location, List<String> files, String what, Throwable cause) {
    String named =
        files.isEmpty()
            ? "A checkpoint in " + location.child("_delta_log") + " is"
            : "Checkpoint "
                + String.join(", ", files.subList(0, Math.min(files.size(), MAX_PATHS_NAMED)))
                + (files.size() == 1 ? " is" : " are");
    return new CompactorException(
        CompactorException.Kind.OPERATION_FAILED,
        named
            + " "
            + what
            + ": corrupt or truncated, so the table "
            + location
            + " cannot be read through it; nothing was written. Fix: restore the file, or, if the"
            + " JSON commits it summarises are still in _delta_log, delete it and"
            + " _delta_log/_last_checkpoint so readers replay the commits.",
        List.of(),
        cause);
  }

  /** The table uses something the compactor will not touch. */
  public static CompactorException unsupportedTable(TableLocation location, String why) {
    return new CompactorException(
        CompactorException.Kind.UNSUPPORTED_TABLE,
        "Table " + location + " is not supported: " + why,
        List.of(),
        null);
  }

  /** The compactor refused an action that could lose data; {@code why} says how to proceed. */
  public static CompactorException refused(String what, String why) {
    return new CompactorException(
        CompactorException.Kind.REFUSED, "Refused to " + what + ": " + why, List.of(), null);
  }

  /**
   * Infrastructure failure, wrapped once at the adapter edge with what was being done.
   *
   * @param doing what the compactor was doing, e.g. "reading the log of file:/t at version 3"
   */
  public static CompactorException operationFailed(String doing, Throwable cause) {
    String reason =
        cause == null ? "" : ": " + cause.getClass().getSimpleName() + ": " + cause.getMessage();
    return new CompactorException(
        CompactorException.Kind.OPERATION_FAILED,
        "Failed while " + doing + reason,
        List.of(),
        cause);
  }

  /**
   * A commit that failed, conflicted or may have landed; {@code message} says which, what was left
   * behind and how to check.
   */
  public static CompactorException commitFailed(String message, Throwable cause) {
    return new CompactorException(
        CompactorException.Kind.OPERATION_FAILED, message, List.of(), cause);
  }
}
