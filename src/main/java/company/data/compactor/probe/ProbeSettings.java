package company.data.compactor.probe;

import java.util.Locale;

/**
 * Operator configuration of the latency probe (not a request input: the query is SQL).
 *
 * @param query a single SELECT over the view {@code t} (the sampled files), default {@value
 *     #DEFAULT_QUERY}; it must not assume any column
 * @param maxPartitions partitions sampled, default {@value #DEFAULT_MAX_PARTITIONS}: the most
 *     fragmented ones, chosen before compaction and read again after it
 * @param runs timed runs, default {@value #DEFAULT_RUNS}; the median is reported
 */
public record ProbeSettings(String query, int maxPartitions, int runs) {

  public static final String DEFAULT_QUERY = "SELECT count(*) FROM t";
  public static final int DEFAULT_MAX_PARTITIONS = 3;
  public static final int DEFAULT_RUNS = 3;

  public ProbeSettings {
    String q = query.strip().toLowerCase(Locale.ROOT);
    if (!(q.startsWith("select") || q.startsWith("with")) || query.contains(";")) {
      throw new IllegalArgumentException(
          "the probe query must be one SELECT statement over t, got: " + query);
    }
    if (maxPartitions < 1 || runs < 1) {
      throw new IllegalArgumentException("probe partitions and runs must be >= 1");
    }
  }

  public static ProbeSettings defaults() {
    return new ProbeSettings(DEFAULT_QUERY, DEFAULT_MAX_PARTITIONS, DEFAULT_RUNS);
  }
}
