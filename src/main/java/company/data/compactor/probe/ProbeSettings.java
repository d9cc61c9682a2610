package company.data.compactor.probe;

import company.data.compactor.error.Errors;
import company.data.compactor.error.Violation;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Operator configuration of the latency probe (not a request input: the query is SQL). Each value
 * has its environment variable ({@code COMPACTOR_PROBE_*}, see {@link #fromEnvironment}).
 *
 * @param query a single SELECT over the view {@code t} (the sampled files), default {@value
 *     #DEFAULT_QUERY}; it must not assume any column
 * @param maxPartitions partitions sampled, default {@value #DEFAULT_MAX_PARTITIONS}: the most
 *     fragmented ones, chosen before compaction and read again after it
 * @param runs timed passes, default {@value #DEFAULT_RUNS}, after one warm-up pass; the median is
 *     reported; fewer run when the time budget is used up
 * @param concurrency requests in flight at once on object stores, default {@value
 *     #DEFAULT_CONCURRENCY} (what DuckDB and Spark readers use)
 * @param maxFiles files read per pass at most, default {@value #DEFAULT_MAX_FILES}: four rounds of
 *     {@value #DEFAULT_CONCURRENCY} requests, so the per-file cost of fragmentation shows while the
 *     requests per pass stay bounded
 * @param maxBytes bytes read per pass at most, default {@value #DEFAULT_MAX_BYTES} (128 MiB, the
 *     default target file size, so one compacted file fits and the measurement after compaction can
 *     run); on object stores each pass downloads at most this much into scratch
 * @param budgetPct share of the run the whole probe (both measurements, warm-ups included) may
 *     take, default {@value #DEFAULT_BUDGET_PCT} percent of an estimate of the run (see {@link
 *     ProbeBudget})
 * @param budgetMinMs the budget's floor, default {@value #DEFAULT_BUDGET_MIN_MS} ms, so a small
 *     table's fast run still gets a measurement
 */
public record ProbeSettings(
    String query,
    int maxPartitions,
    int runs,
    int concurrency,
    int maxFiles,
    long maxBytes,
    double budgetPct,
    long budgetMinMs) {

  public static final String DEFAULT_QUERY = "SELECT count(*) FROM t";
  public static final int DEFAULT_MAX_PARTITIONS = 3;
  public static final int DEFAULT_RUNS = 3;
  public static final int DEFAULT_CONCURRENCY = 16;
  public static final int DEFAULT_MAX_FILES = 64;
  public static final long DEFAULT_MAX_BYTES = 128L * 1024 * 1024;
  public static final double DEFAULT_BUDGET_PCT = 10.0;
  public static final long DEFAULT_BUDGET_MIN_MS = 2_000;

  /** The environment variables, in the order their violations are reported. */
  public static final String QUERY_VARIABLE = "COMPACTOR_PROBE_QUERY";

  public static final String PARTITIONS_VARIABLE = "COMPACTOR_PROBE_PARTITIONS";
  public static final String RUNS_VARIABLE = "COMPACTOR_PROBE_RUNS";
  public static final String CONCURRENCY_VARIABLE = "COMPACTOR_PROBE_CONCURRENCY";
  public static final String MAX_FILES_VARIABLE = "COMPACTOR_PROBE_MAX_FILES";
  public static final String MAX_BYTES_VARIABLE = "COMPACTOR_PROBE_MAX_BYTES";
  public static final String BUDGET_PCT_VARIABLE = "COMPACTOR_PROBE_BUDGET_PCT";
  public static final String BUDGET_MIN_MS_VARIABLE = "COMPACTOR_PROBE_BUDGET_MIN_MS";

  /** Upper bound of {@link #concurrency}: more threads than this only queue at the store. */
  public static final int MAX_CONCURRENCY = 256;

  public ProbeSettings {
    List<Violation> violations =
        violations(
            query, maxPartitions, runs, concurrency, maxFiles, maxBytes, budgetPct, budgetMinMs);
    if (!violations.isEmpty()) {
      throw new IllegalArgumentException(
          String.join("; ", violations.stream().map(v -> v.key() + " " + v.rule()).toList()));
    }
  }

  /** The first three settings as given, the rest at their defaults. */
  public ProbeSettings(String query, int maxPartitions, int runs) {
    this(
        query,
        maxPartitions,
        runs,
        DEFAULT_CONCURRENCY,
        DEFAULT_MAX_FILES,
        DEFAULT_MAX_BYTES,
        DEFAULT_BUDGET_PCT,
        DEFAULT_BUDGET_MIN_MS);
  }

  public static ProbeSettings defaults() {
    return new ProbeSettings(DEFAULT_QUERY, DEFAULT_MAX_PARTITIONS, DEFAULT_RUNS);
  }

  /**
   * The settings from {@code COMPACTOR_PROBE_QUERY}, {@code _PARTITIONS}, {@code _RUNS}, {@code
   * _CONCURRENCY}, {@code _MAX_FILES}, {@code _MAX_BYTES}, {@code _BUDGET_PCT} and {@code
   * _BUDGET_MIN_MS}; unset means the default.
   *
   * @throws company.data.compactor.error.CompactorException INVALID_REQUEST naming every variable
   *     whose value breaks its rule, with the value and the rule
   */
  public static ProbeSettings fromEnvironment(java.util.Map<String, String> environment) {
    List<Violation> violations = new ArrayList<>();
    String query = environment.getOrDefault(QUERY_VARIABLE, DEFAULT_QUERY);
    int partitions =
        (int) whole(environment, PARTITIONS_VARIABLE, DEFAULT_MAX_PARTITIONS, violations);
    int runs = (int) whole(environment, RUNS_VARIABLE, DEFAULT_RUNS, violations);
    int concurrency =
        (int) whole(environment, CONCURRENCY_VARIABLE, DEFAULT_CONCURRENCY, violations);
    int maxFiles = (int) whole(environment, MAX_FILES_VARIABLE, DEFAULT_MAX_FILES, violations);
    long maxBytes = whole(environment, MAX_BYTES_VARIABLE, DEFAULT_MAX_BYTES, violations);
    long budgetMinMs =
        whole(environment, BUDGET_MIN_MS_VARIABLE, DEFAULT_BUDGET_MIN_MS, violations);
    double budgetPct = DEFAULT_BUDGET_PCT;
    String pct = environment.get(BUDGET_PCT_VARIABLE);
    if (pct != null) {
      try {
        budgetPct = Double.parseDouble(pct.strip());
      } catch (NumberFormatException e) {
        violations.add(new Violation(BUDGET_PCT_VARIABLE, pct, "must be a number > 0 and <= 100"));
        budgetPct = DEFAULT_BUDGET_PCT;
      }
    }
    java.util.Set<String> unparsed =
        violations.stream().map(Violation::key).collect(java.util.stream.Collectors.toSet());
    violations(query, partitions, runs, concurrency, maxFiles, maxBytes, budgetPct, budgetMinMs)
        .stream()
        .filter(v -> !unparsed.contains(v.key()))
        .map(
            v ->
                environment.containsKey(v.key())
                    ? new Violation(v.key(), Violation.excerpt(environment.get(v.key())), v.rule())
                    : v)
        .forEach(violations::add);
    if (!violations.isEmpty()) {
      throw Errors.invalidRequest(violations);
    }
    return new ProbeSettings(
        query, partitions, runs, concurrency, maxFiles, maxBytes, budgetPct, budgetMinMs);
  }

  /** Every broken rule, each naming its variable, the value and the rule. */
  static List<Violation> violations(
      String query,
      int maxPartitions,
      int runs,
      int concurrency,
      int maxFiles,
      long maxBytes,
      double budgetPct,
      long budgetMinMs) {
    List<Violation> found = new ArrayList<>();
    String q = query == null ? "" : query.strip().toLowerCase(Locale.ROOT);
    if (!(q.startsWith("select") || q.startsWith("with")) || q.contains(";")) {
      found.add(
          new Violation(
              QUERY_VARIABLE,
              Violation.excerpt(query),
              "the probe query must be one SELECT statement over t, got: "
                  + Violation.excerpt(query)));
    }
    atLeast(found, PARTITIONS_VARIABLE, maxPartitions, 1);
    atLeast(found, RUNS_VARIABLE, runs, 1);
    atLeast(found, MAX_FILES_VARIABLE, maxFiles, 1);
    atLeast(found, MAX_BYTES_VARIABLE, maxBytes, 1);
    atLeast(found, BUDGET_MIN_MS_VARIABLE, budgetMinMs, 0);
    if (concurrency < 1 || concurrency > MAX_CONCURRENCY) {
      found.add(
          new Violation(
              CONCURRENCY_VARIABLE,
              String.valueOf(concurrency),
              "must be a whole number >= 1 and <= " + MAX_CONCURRENCY));
    }
    if (!(budgetPct > 0 && budgetPct <= 100)) {
      found.add(
          new Violation(
              BUDGET_PCT_VARIABLE, String.valueOf(budgetPct), "must be a number > 0 and <= 100"));
    }
    return found;
  }

  private static void atLeast(List<Violation> found, String variable, long value, long min) {
    if (value < min) {
      found.add(new Violation(variable, String.valueOf(value), "must be a whole number >= " + min));
    }
  }

  private static long whole(
      java.util.Map<String, String> environment,
      String variable,
      long fallback,
      List<Violation> violations) {
    String raw = environment.get(variable);
    if (raw == null) {
      return fallback;
    }
    try {
      long value = Long.parseLong(raw.strip());
      if (value <= Integer.MAX_VALUE || variable.equals(MAX_BYTES_VARIABLE)) {
        return value;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    violations.add(
        new Violation(
            variable,
            Violation.excerpt(raw),
            "must be a whole number"
                + (variable.equals(BUDGET_MIN_MS_VARIABLE) ? " >= 0" : " >= 1")
                + (variable.equals(CONCURRENCY_VARIABLE) ? " and <= " + MAX_CONCURRENCY : "")));
    return fallback;
  }
}
