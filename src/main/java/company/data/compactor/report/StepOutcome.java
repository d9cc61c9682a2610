package company.data.compactor.report;

/**
 * What happened to one step of the run.
 *
 * @param step the step name: {@code seed}, {@code inspect}, {@code probe}, {@code compact}, {@code
 *     vacuum}
 * @param status {@code done}, {@code skipped}, {@code not_available} or {@code failed} (an advisory
 *     step, such as the read-latency probe, that failed without failing the run)
 * @param detail one line on why or what
 */
public record StepOutcome(String step, String status, String detail) {

  public static StepOutcome done(String step, String detail) {
    return new StepOutcome(step, "done", detail);
  }

  public static StepOutcome skipped(String step, String why) {
    return new StepOutcome(step, "skipped", why);
  }

  /** An advisory step failed; the run went on. */
  public static StepOutcome failed(String step, String why) {
    return new StepOutcome(step, "failed", why);
  }

  /** The step is not part of this build yet; nothing was done in its name. */
  public static StepOutcome notAvailable(String step, String why) {
    return new StepOutcome(step, "not_available", why);
  }
}
