package company.data.compactor.model;

/**
 * The safety constants, defined once: the request rules refuse what breaks them before anything is
 * touched, and the code that acts (vacuum's retention, the Z-order key) applies the same values, so
 * the two can never drift apart.
 */
public final class SafetyLimits {

  /**
   * The vacuum retention floor, in hours (7 days): no input, table property or environment variable
   * can lower it, and there is no override.
   */
  public static final int RETENTION_FLOOR_HOURS = 168;

  /**
   * Z-order takes at most this many columns: each more column halves how well the others cluster.
   */
  public static final int MAX_Z_ORDER_COLUMNS = 4;

  private SafetyLimits() {}
}
