package company.data.compactor.loghygiene;

/** Whether log hygiene changes the log. */
public enum LogCleanupMode {
  /** Plan only: no checkpoint written, nothing deleted (the default). */
  DRY_RUN,
  /** Write the due checkpoint and delete the expired log files. */
  APPLY
}
