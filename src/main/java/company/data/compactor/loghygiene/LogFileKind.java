package company.data.compactor.loghygiene;

/** The log files cleanup considers; every other name in {@code _delta_log} is never touched. */
public enum LogFileKind {
  /** {@code <version>.json}. */
  COMMIT,
  /**
   * {@code <version>.checkpoint.parquet}, a part {@code
   * <version>.checkpoint.<part>.<parts>.parquet} of a multi-part checkpoint, or a v2 checkpoint
   * {@code <version>.checkpoint.<uuid>.json|parquet}.
   */
  CHECKPOINT,
  /** {@code <version>.crc}, the checksum Delta writers leave beside a commit. */
  CHECKSUM
}
