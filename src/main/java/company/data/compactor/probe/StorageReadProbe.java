package company.data.compactor.probe;

import company.data.compactor.duckdb.DuckDbConnections;
import company.data.compactor.duckdb.Sql;
import company.data.compactor.error.Errors;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.PartitionValues;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.BoundedConcurrency;
import company.data.compactor.storage.Scratch;
import company.data.compactor.storage.Storage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * Times a reader of this storage over a bounded sample (see {@link ProbeSample}): on local disk
 * DuckDB reads the sampled files in place; on object stores each pass fetches them, {@link
 * ProbeSettings#concurrency()} at a time, into a fresh scratch directory (deleted after the pass)
 * and DuckDB reads them there (DuckDB here has no S3 or Delta reader, so this replaces the
 * blueprint's {@code delta_scan}). One warm-up pass over one round of the sample (its first {@link
 * ProbeSettings#concurrency()} files), then up to {@link ProbeSettings#runs()} timed passes within
 * the time budget ({@link ProbeBudget}); the median is reported. A sample that scratch cannot hold,
 * or a budget the passes do not fit in, skips the measurement with the reason.
 */
public final class StorageReadProbe implements LatencyProbe {

  /** Free bytes where the probe downloads its passes. */
  @FunctionalInterface
  public interface ScratchSpace {
    /** Bytes that can still be written under {@code dir}. */
    long usableBytes(Path dir) throws IOException;

    /** The free space of the file system holding {@code dir}. */
    static ScratchSpace fileStore() {
      return dir -> Files.getFileStore(dir).getUsableSpace();
    }
  }

  private final Storage storage;
  private final ProbeSettings settings;
  private final Path tempRoot;
  private final ScratchSpace scratch;

  /**
   * @param tempRoot where object-store passes download the sample (a fresh directory per pass,
   *     deleted after it); DuckDB's home directory
   */
  public StorageReadProbe(Storage storage, ProbeSettings settings, Path tempRoot) {
    this(storage, settings, tempRoot, ScratchSpace.fileStore());
  }

  /** As above, with the free space of scratch answered by {@code scratch}. */
  public StorageReadProbe(
      Storage storage, ProbeSettings settings, Path tempRoot, ScratchSpace scratch) {
    this.storage = storage;
    this.settings = settings;
    this.tempRoot = tempRoot;
    this.scratch = scratch;
  }

  @Override
  public ProbeSettings settings() {
    return settings;
  }

  @Override
  public String method() {
    return String.format(
        Locale.ROOT,
        "a sample of at most %d files and %d bytes from the %d most fragmented partitions (the same"
            + " partitions after compaction, from the files that then hold their rows), read in"
            + " place on local storage or fetched %d at a time into scratch on object stores;"
            + " \"%s\" on them with DuckDB; one warm-up pass over the first %d files, then median"
            + " of %d runs (fewer when"
            + " the time budget, %.1f%% of the estimated run and at least %d ms, runs out; over a"
            + " prefix of the sample when the warm-up shows the whole one does not fit; after"
            + " compaction as many runs as before)",
        settings.maxFiles(),
        settings.maxBytes(),
        settings.maxPartitions(),
        settings.concurrency(),
        settings.query(),
        settings.concurrency(),
        settings.runs(),
        settings.budgetPct(),
        settings.budgetMinMs());
  }

  @Override
  public ProbeResult before(
      TableSnapshot snapshot, List<PartitionValues> partitions, long elapsedMs, long plannedBytes) {
    ProbeSample sample =
        ProbeSample.select(
            snapshot.activeFiles(),
            partitions,
            settings.maxFiles(),
            settings.maxBytes(),
            Long.MAX_VALUE);
    ProbeBudget budget = new ProbeBudget(settings.budgetPct(), settings.budgetMinMs());
    return measure(
        snapshot,
        partitions,
        sample,
        false,
        settings.runs(),
        (warmUpBytes, warmUpMs) -> {
          long total = budget.totalMs(elapsedMs, plannedBytes, warmUpBytes, warmUpMs);
          return new Share(total, ProbeBudget.beforeShareMs(total));
        });
  }

  @Override
  public ProbeResult after(
      TableSnapshot snapshot, List<PartitionValues> partitions, ProbeResult before) {
    ProbeSample sample =
        ProbeSample.select(
            snapshot.activeFiles(),
            partitions,
            settings.maxFiles(),
            settings.maxBytes(),
            Math.max(1, before.bytes()));
    // As many timed passes as before: the medians compare like with like, and the files that now
    // hold the partitions' rows are not read more often than the ones they replaced.
    return measure(
        snapshot,
        partitions,
        sample,
        true,
        Math.max(1, before.runsMs().size()),
        (warmUpBytes, warmUpMs) ->
            new Share(before.budgetMs(), before.budgetMs() - before.usedMs()));
  }

  /** The whole probe's budget and this measurement's share of it, in milliseconds. */
  private record Share(long totalMs, long shareMs) {}

  /** The budget and this measurement's share, once the warm-up pass is known. */
  @FunctionalInterface
  private interface Allotment {
    Share once(long warmUpBytes, double warmUpMs);
  }

  /**
   * Measures {@code sample}; {@code last}: the run's last measurement (after the compaction), after
   * which it needs no DuckDB database.
   */
  private ProbeResult measure(
      TableSnapshot snapshot,
      List<PartitionValues> partitions,
      ProbeSample sample,
      boolean last,
      int maxRuns,
      Allotment allotment) {
    try {
      // Once per process, and the rewrite needs it anyway: not the probe's cost.
      DuckDbConnections.load();
    } catch (SQLException e) {
      throw Errors.operationFailed("loading DuckDB for the read-latency probe", e);
    }
    long started = System.nanoTime();
    List<String> labels = labels(sample, partitions);
    ReadMethod method =
        sample.files().stream().allMatch(f -> storage.localFile(f.path()).isPresent())
            ? ReadMethod.IN_PLACE
            : ReadMethod.DOWNLOAD;
    try {
      if (sample.nothingFits()) {
        return ProbeResult.skipped(
            String.format(
                Locale.ROOT,
                "sample: every file of the sampled partitions is larger than the byte cap (%d"
                    + " bytes, %s); raise it to measure",
                settings.maxBytes(),
                ProbeSettings.MAX_BYTES_VARIABLE),
            method,
            sample,
            labels,
            0,
            msSince(started),
            0);
      }
      Files.createDirectories(tempRoot);
      if (method == ReadMethod.DOWNLOAD) {
        long free = scratch.usableBytes(tempRoot);
        if (sample.bytes() > free) {
          return ProbeResult.skipped(
              String.format(
                  Locale.ROOT,
                  "scratch: %s has %d bytes free and the sample needs %d (%d files); lower %s or"
                      + " %s, or give scratch more space",
                  tempRoot,
                  free,
                  sample.bytes(),
                  sample.files().size(),
                  ProbeSettings.MAX_BYTES_VARIABLE,
                  ProbeSettings.MAX_FILES_VARIABLE),
              method,
              sample,
              labels,
              0,
              msSince(started),
              0);
        }
      }
      try (ProbeReaders readers = ProbeReaders.forQuery(settings.query(), tempRoot, last)) {
        return timedPasses(
            readers, partitions, sample, maxRuns, allotment, started, method, labels);
      }
    } catch (IOException | SQLException e) {
      throw Errors.operationFailed(
          "probing read latency of " + snapshot.location() + " at version " + snapshot.version(),
          e);
    }
  }

  private ProbeResult timedPasses(
      ProbeReaders readers,
      List<PartitionValues> partitions,
      ProbeSample sample,
      int maxRuns,
      Allotment allotment,
      long started,
      ReadMethod method,
      List<String> labels)
      throws IOException, SQLException {
    long downloaded = 0;
    // One round of requests: a warm-up over the whole sample could overrun the share on a slow
    // store and leave no time to measure.
    ProbeSample warmUpSample = sample.firstFiles(settings.concurrency());
    Pass warmUp = pass(readers, warmUpSample.files(), method);
    downloaded += warmUp.downloadedBytes();
    double warmUpMs = warmUp.ms();
    Share budget = allotment.once(warmUpSample.bytes(), warmUpMs);
    long totalMs = budget.totalMs();
    long shareMs = budget.shareMs();
    // A whole sample that does not fit is cut to the prefix that does, rather than skipped.
    ProbeSample timedSample =
        sample.prefixWithin(
            ProbeBudget.bytesThatFit(
                sample.bytes(),
                ProbeBudget.passMs(sample.bytes(), warmUpSample.bytes(), warmUpMs),
                shareMs - msSince(started)));
    if (timedSample.files().isEmpty()) {
      timedSample = sample;
    }
    List<Double> runs = new ArrayList<>();
    String result = warmUp.result();
    double slowest = ProbeBudget.passMs(timedSample.bytes(), warmUpSample.bytes(), warmUpMs);
    while (runs.size() < maxRuns && msSince(started) + slowest <= shareMs) {
      Pass timed = pass(readers, timedSample.files(), method);
      double ms = timed.ms();
      downloaded += timed.downloadedBytes();
      runs.add(ms);
      slowest = Math.max(slowest, ms);
      result = timed.result();
    }
    if (runs.isEmpty()) {
      return ProbeResult.skipped(
          String.format(
              Locale.ROOT,
              "budget: the warm-up pass took %.0f ms (%d of the sample's %d files) and %d ms of"
                  + " this measurement's %d ms share of the %d ms budget were used, so no timed"
                  + " pass fits; raise %s or %s, or lower %s or %s (not even a pass over the"
                  + " sample's first file would fit)",
              warmUpMs,
              warmUpSample.files().size(),
              sample.files().size(),
              msSince(started),
              Math.max(0, shareMs),
              totalMs,
              ProbeSettings.BUDGET_PCT_VARIABLE,
              ProbeSettings.BUDGET_MIN_MS_VARIABLE,
              ProbeSettings.MAX_FILES_VARIABLE,
              ProbeSettings.MAX_BYTES_VARIABLE),
          method,
          sample,
          labels,
          totalMs,
          msSince(started),
          downloaded);
    }
    return new ProbeResult(
        ProbeResult.Outcome.MEASURED,
        null,
        round(median(runs)),
        runs.stream().map(StorageReadProbe::round).toList(),
        timedSample.files().size(),
        timedSample.bytes(),
        labels(timedSample, partitions),
        result,
        method,
        totalMs,
        msSince(started),
        downloaded);
  }

  /** One pass's answer, what it downloaded and how long it took. */
  private record Pass(String result, long downloadedBytes, double ms) {}

  /**
   * One pass over {@code files} on a connection no earlier pass used ({@link ProbeReaders}), timed
   * from after it is made (a reader's engine is up before it reads) to the query's answer.
   */
  private Pass pass(ProbeReaders readers, List<DataFile> files, ReadMethod method)
      throws IOException, SQLException {
    if (files.isEmpty()) {
      return new Pass("", 0, 0);
    }
    try (Connection c = readers.next()) {
      long started = System.nanoTime();
      if (method == ReadMethod.IN_PLACE) {
        List<Path> local =
            files.stream()
                .map(f -> storage.localFile(f.path()))
                .map(Optional::orElseThrow)
                .toList();
        String result = query(c, local);
        return new Pass(result, 0, (System.nanoTime() - started) / 1e6);
      }
      return download(c, files, started);
    }
  }

  private Pass download(Connection c, List<DataFile> files, long started)
      throws IOException, SQLException {
    // A locked run-* directory: a killed run's copies are swept by the next run (Sweeper).
    try (Scratch scratch = Scratch.create(tempRoot)) {
      Path dir = scratch.dir();
      List<Long> sizes =
          BoundedConcurrency.mapInOrder(
              IntStream.range(0, files.size()).boxed().toList(),
              settings.concurrency(),
              i -> {
                try (InputStream in = storage.openFrom(files.get(i).path(), 0)) {
                  return Files.copy(in, dir.resolve("f" + i + ".parquet"));
                }
              });
      List<Path> local =
          IntStream.range(0, files.size())
              .mapToObj(i -> dir.resolve("f" + i + ".parquet"))
              .toList();
      String result = query(c, local);
      long bytes = sizes.stream().mapToLong(Long::longValue).sum();
      return new Pass(result, bytes, (System.nanoTime() - started) / 1e6);
    }
  }

  private String query(Connection c, List<Path> files) throws SQLException {
    String list = Sql.pathList(files);
    try (Statement s = c.createStatement()) {
      s.execute(
          "CREATE TEMP VIEW t AS SELECT * FROM read_parquet("
              + list
              + ", hive_partitioning = false, union_by_name = true)");
      try (ResultSet rs = s.executeQuery(settings.query())) {
        if (!rs.next()) {
          return "";
        }
        List<String> values = new ArrayList<>();
        for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
          values.add(String.valueOf(rs.getObject(i)));
        }
        return String.join(",", values);
      }
    }
  }

  /** The labels of the partitions the sample holds files of, in the given order. */
  private static List<String> labels(ProbeSample sample, List<PartitionValues> partitions) {
    if (sample.files().isEmpty()) {
      return partitions.stream().map(PartitionValues::label).toList();
    }
    LinkedHashSet<PartitionValues> held = new LinkedHashSet<>();
    partitions.stream()
        .filter(p -> sample.files().stream().anyMatch(f -> f.partition().equals(p)))
        .forEach(held::add);
    return held.stream().map(PartitionValues::label).toList();
  }

  private static double median(List<Double> runs) {
    List<Double> sorted = runs.stream().sorted().toList();
    return sorted.size() % 2 == 1
        ? sorted.get(sorted.size() / 2)
        : (sorted.get(sorted.size() / 2 - 1) + sorted.get(sorted.size() / 2)) / 2;
  }

  private static long msSince(long startedNanos) {
    return (System.nanoTime() - startedNanos) / 1_000_000;
  }

  private static double round(double ms) {
    return Math.round(ms * 10) / 10.0;
  }
}
