package company.data.compactor.admission;

import company.data.compactor.config.TableAllowlist;

/**
 * What started a run, and so which deployment it runs in, what an empty allowlist means there and
 * whether the caller's inputs go over the server-side defaults ({@link RemoteInputs}).
 */
public enum Trigger {
  /** {@code bin/compactor run|plan|inspect|vacuum|history}. */
  CLI(Deployment.LOCAL, InputSource.AS_GIVEN),
  /** A direct invocation of the maintenance function with request inputs as its event. */
  DIRECT_EVENT(Deployment.MAINTENANCE_FUNCTION, InputSource.AS_GIVEN),
  /** A webhook call (authenticated by the webhook function before admission). */
  WEBHOOK(Deployment.WEBHOOK_FUNCTION, InputSource.OVER_SERVER_DEFAULTS),
  /**
   * A run the webhook accepted, continued by the maintenance function: its inputs were merged over
   * the server defaults by the webhook and are admitted again as received.
   */
  HANDOFF(Deployment.MAINTENANCE_FUNCTION, InputSource.AS_GIVEN),
  /** One table of the nightly schedule ({@code COMPACTOR_SCHEDULED_TABLES}). */
  SCHEDULE(Deployment.MAINTENANCE_FUNCTION, InputSource.OVER_SERVER_DEFAULTS),
  /**
   * A task of the fan-out state machine (Plan, a partition item, Finalize): its inputs were
   * admitted by the schedule or the webhook that started the execution and are admitted again as
   * received by every task.
   */
  STATE_MACHINE(Deployment.MAINTENANCE_FUNCTION, InputSource.AS_GIVEN);

  /** Where the compactor runs; each kind gives an empty allowlist one meaning. */
  public enum Deployment {
    /**
     * The command line, run by an operator with the table's own credentials: an empty allowlist
     * means any table.
     */
    LOCAL(TableAllowlist.Empty.ANY_TABLE),
    /**
     * The maintenance function, invoked only by principals allowed to invoke it (EventBridge, the
     * webhook function, operators) and limited by its IAM role: an empty allowlist means any table.
     */
    MAINTENANCE_FUNCTION(TableAllowlist.Empty.ANY_TABLE),
    /**
     * The webhook function, reachable over HTTP by anyone holding the key: an empty allowlist means
     * no table (it fails closed until the operator configures it).
     */
    WEBHOOK_FUNCTION(TableAllowlist.Empty.NO_TABLE);

    private final TableAllowlist.Empty emptyAllowlist;

    Deployment(TableAllowlist.Empty emptyAllowlist) {
      this.emptyAllowlist = emptyAllowlist;
    }

    /** What an empty allowlist means in this deployment. */
    public TableAllowlist.Empty emptyAllowlist() {
      return emptyAllowlist;
    }
  }

  /** Whether the caller's inputs are taken as given or merged over the server defaults. */
  public enum InputSource {
    AS_GIVEN,
    OVER_SERVER_DEFAULTS
  }

  private final Deployment deployment;
  private final InputSource inputSource;

  Trigger(Deployment deployment, InputSource inputSource) {
    this.deployment = deployment;
    this.inputSource = inputSource;
  }

  /** The deployment this trigger starts runs in. */
  public Deployment deployment() {
    return deployment;
  }

  /** How this trigger's inputs are read. */
  public InputSource inputSource() {
    return inputSource;
  }
}
