package company.data.compactor.sweep;

import java.time.Duration;
import java.util.Objects;

/**
 * How old a killed run's leftovers must be before a later run's sweep removes them.
 *
 * @param scratchMinAge a scratch directory ({@code run-*} under {@code
 *     <work-dir>/.delta-compactor/scratch} or {@code .../uploads}) whose lock is free is removed
 *     only when it was last modified longer ago than this; the wiring uses the lease TTL ({@code
 *     COMPACTOR_LEASE_TTL_SECONDS}, default 20 minutes), a second guard behind the lock
 * @param temporaryObjectMinAge a temporary object of ours in the table ({@code .compactor-tmp-*})
 *     is removed only when it was last modified longer ago than this; the wiring uses the 168-hour
 *     retention floor, the age before which vacuum deletes nothing either
 */
public record SweepPolicy(Duration scratchMinAge, Duration temporaryObjectMinAge) {

  public SweepPolicy {
    Objects.requireNonNull(scratchMinAge, "scratchMinAge");
    Objects.requireNonNull(temporaryObjectMinAge, "temporaryObjectMinAge");
    if (scratchMinAge.isNegative() || temporaryObjectMinAge.isNegative()) {
      throw new IllegalArgumentException(
          "sweep ages must not be negative: " + scratchMinAge + ", " + temporaryObjectMinAge);
    }
  }
}
