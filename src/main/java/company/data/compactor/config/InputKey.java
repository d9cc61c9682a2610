package company.data.compactor.config;

import java.util.Arrays;
import java.util.Optional;

/**
 * The names of the request's inputs as webhook, schedule and configuration spell them. The command
 * line uses the same names in kebab case ({@link #flag()}).
 */
public enum InputKey {
  DEMO_MODE,
  TABLE_URI,
  SMALL_FILE_THRESHOLD_MB,
  COMPACTION_RATIO_THRESHOLD_PCT,
  TARGET_FILE_SIZE_MB,
  Z_ORDER_COLUMNS,
  VACUUM_RETENTION_HOURS,
  VACUUM_DRY_RUN,
  LATENCY_SLA_MS,
  NOTIFY_SLACK,
  PARTITION_FILTER,
  MAX_BYTES_PER_RUN,
  VACUUM_MODE,
  MAX_ZORDER_GROUP_BYTES;

  /** The snake-case name, e.g. {@code small_file_threshold_mb}. */
  public String key() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  /** The command-line flag, e.g. {@code --small-file-threshold-mb}. */
  public String flag() {
    return "--" + key().replace('_', '-');
  }

  /** The input named {@code key}, if it is one. */
  public static Optional<InputKey> fromKey(String key) {
    return Arrays.stream(values()).filter(k -> k.key().equals(key)).findFirst();
  }
}
