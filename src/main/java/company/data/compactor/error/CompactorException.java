package company.data.compactor.error;

import java.util.List;

/**
 * The one user-facing failure type. Its message says what happened, why and how to fix it; it never
 * carries secrets. Build instances through {@link Errors}.
 */
public class CompactorException extends RuntimeException {

  /** Broad classes of failure; each entry point maps them to exit codes or HTTP statuses. */
  public enum Kind {
    /** The request broke one or more input rules; nothing was read or written. */
    INVALID_REQUEST,
    /** The table does not exist where the request points. */
    TABLE_NOT_FOUND,
    /** The table uses a feature the compactor does not handle safely. */
    UNSUPPORTED_TABLE,
    /** The compactor refused an action that could lose data. */
    REFUSED,
    /** Storage, log or engine failure while doing the work. */
    OPERATION_FAILED
  }

  private final Kind kind;
  private final List<Violation> violations;

  CompactorException(Kind kind, String message, List<Violation> violations, Throwable cause) {
    super(message, cause);
    this.kind = kind;
    this.violations = List.copyOf(violations);
  }

  /** The class of failure. */
  public Kind kind() {
    return kind;
  }

  /** For {@link Kind#INVALID_REQUEST}: every broken rule; empty otherwise. */
  public List<Violation> violations() {
    return violations;
  }

  /** Whether the failure came from the user's input (nothing touched) rather than the work. */
  public boolean isInvalidInput() {
    return kind == Kind.INVALID_REQUEST;
  }
}
