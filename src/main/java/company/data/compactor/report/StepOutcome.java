package company.data.compactor.report;

/**
 * What happened to one step of the run.
 *
 * @param step the step name: {@code seed}, {@code inspect}, {@code probe}, {@code compact},
 *     {@code vacuum}
 * @param status {@code done}, {@code skipped} or {@code not_available}
 * @param detail one line on why or what
 */
public record StepOutcome(String step, String status, String detail) {

  public static StepOutcome done(String step, String detail) {
    return new StepOutcome(step, "done", detail);
  }

  public static StepOutcome skipped(String step, String why) {
    return new StepOutcome(step, "skipped", why);
  }

  /** The step is not part of this build yet; nothing was done in its name. */
  public static StepOutcome notAvailable(String step, String why) {
    return new StepOutcome(step, "not_available", why);
  }
}
