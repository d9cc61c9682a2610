package company.data.compactor.wiring;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.aws.AwsClients;
import company.data.compactor.compact.exec.CompactionExecutor;
import company.data.compactor.compact.exec.RewriteSettings;
import company.data.compactor.delta.kernel.KernelDeletionVectorLoader;
import company.data.compactor.delta.kernel.KernelDeltaTables;
import company.data.compactor.delta.kernel.KernelLogReader;
import company.data.compactor.delta.kernel.KernelRewriteCommitter;
import company.data.compactor.delta.kernel.KernelSnapshotShelf;
import company.data.compactor.delta.kernel.KernelTableCheckpointer;
import company.data.compactor.delta.kernel.KernelTableWriter;
import company.data.compactor.delta.kernel.LogRewriteLookup;
import company.data.compactor.demo.DemoSeeder;
import company.data.compactor.error.Errors;
import company.data.compactor.error.Violation;
import company.data.compactor.fanout.ExecutionBudget;
import company.data.compactor.fanout.PlanStore;
import company.data.compactor.lease.FileReplayLedger;
import company.data.compactor.lease.LeaseGuard;
import company.data.compactor.lease.LeaseStore;
import company.data.compactor.lease.Leases;
import company.data.compactor.lease.ReplayLedger;
import company.data.compactor.lease.TableLeaseStore;
import company.data.compactor.lease.dynamodb.DynamoDbLeaseStore;
import company.data.compactor.lease.dynamodb.DynamoDbReplayLedger;
import company.data.compactor.loghygiene.LogCleanupExecutor;
import company.data.compactor.loghygiene.LogCleanupPlanner;
import company.data.compactor.loghygiene.LogFile;
import company.data.compactor.loghygiene.LogFileKind;
import company.data.compactor.model.TableLocation;
import company.data.compactor.notify.FailureAlert;
import company.data.compactor.notify.NoNotifier;
import company.data.compactor.notify.NotificationResult;
import company.data.compactor.notify.Notifier;
import company.data.compactor.notify.SlackNotifier;
import company.data.compactor.pipeline.FanOutPipeline;
import company.data.compactor.pipeline.MaintenancePipeline;
import company.data.compactor.pipeline.PipelinePorts;
import company.data.compactor.probe.ProbeSettings;
import company.data.compactor.probe.StorageReadProbe;
import company.data.compactor.publish.HtmlReportPublisher;
import company.data.compactor.publish.ReportPublisher;
import company.data.compactor.report.MaintenanceReport;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.storage.Storage;
import company.data.compactor.storage.StoredObject;
import company.data.compactor.storage.s3.S3Clients;
import company.data.compactor.storage.s3.S3Storage;
import company.data.compactor.sweep.SweepPolicy;
import company.data.compactor.sweep.Sweeper;
import company.data.compactor.telemetry.JsonLinesTelemetrySink;
import company.data.compactor.telemetry.TelemetryStore;
import company.data.compactor.telemetry.dynamodb.DynamoDbTelemetrySink;
import company.data.compactor.vacuum.Retention;
import company.data.compactor.vacuum.VacuumExecutor;
import company.data.compactor.vacuum.VacuumPlanner;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Assembles adapters into a pipeline for the entry points ({@code cli}, {@code lambda}); nothing
 * else imports this package.
 */
public final class Wiring {

  private static final System.Logger LOG = System.getLogger(Wiring.class.getName());

  /** Per-run scratch directories go under this, relative to the work directory. */
  public static final String SCRATCH_RELATIVE_PATH = ".delta-compactor/scratch";

  /** The latency probe's per-run copies go under this, relative to the work directory. */
  public static final String PROBE_RELATIVE_PATH = ".delta-compactor/probe";

  /** S3 uploads are buffered under this, relative to the work directory. */
  public static final String UPLOADS_RELATIVE_PATH = ".delta-compactor/uploads";

  private Wiring() {}

  /**
   * DuckDB bounds from the environment: {@code COMPACTOR_DUCKDB_MEMORY_LIMIT} (default 1GB), {@code
   * COMPACTOR_DUCKDB_THREADS} (default: every core), {@code COMPACTOR_PARQUET_COMPRESSION} ({@code
   * zstd} default, or {@code snappy}).
   *
   * @throws company.data.compactor.error.CompactorException INVALID_REQUEST naming a malformed
   *     variable
   */
  public static RewriteSettings rewriteSettings(Map<String, String> environment) {
    RewriteSettings defaults = RewriteSettings.defaults();
    String memory =
        environment.getOrDefault("COMPACTOR_DUCKDB_MEMORY_LIMIT", defaults.memoryLimit());
    String threads =
        environment.getOrDefault("COMPACTOR_DUCKDB_THREADS", String.valueOf(defaults.threads()));
    String compression =
        environment.getOrDefault("COMPACTOR_PARQUET_COMPRESSION", defaults.compression());
    try {
      return new RewriteSettings(
          memory.strip(), Integer.parseInt(threads.strip()), compression.strip());
    } catch (IllegalArgumentException e) {
      throw Errors.invalidRequest(
          List.of(
              new Violation(
                  "environment", memory + "/" + threads + "/" + compression, e.getMessage())));
    }
  }

  /**
   * The storage a location lives on: local disk, or S3 configured from {@code environment} (see
   * {@link S3Clients}); S3 uploads are buffered under {@code workDir}.
   */
  public static Storage storageFor(
      TableLocation location, Path workDir, Map<String, String> environment) {
    return switch (location.scheme()) {
      case FILE -> new LocalStorage();
      case S3 ->
          new S3Storage(
              S3Clients.fromEnvironment(environment),
              S3Clients.forConditionalWrites(environment),
              workDir.resolve(UPLOADS_RELATIVE_PATH));
    };
  }

  /**
   * Refuses a table that is not there before a run writes anything at its location (the lease's
   * record would otherwise be the one file at a mistyped path): its {@code _delta_log} must be a
   * directory holding a commit or a checkpoint, the files a reader starts from. The log is listed
   * from the version {@code _last_checkpoint} names, so a long log is not listed whole; from its
   * start when there is none, it cannot be read, or nothing is found from there.
   *
   * @throws company.data.compactor.error.CompactorException TABLE_NOT_FOUND when it holds neither,
   *     or is not there (a file where the table or its log should be included); OPERATION_FAILED
   *     when reading the log's listing fails
   */
  public static void requireTable(
      TableLocation location, Path workDir, Map<String, String> environment) {
    Storage storage = storageFor(location, workDir, environment);
    Optional<Path> local = storage.localFile(location.child("_delta_log"));
    if (local.isPresent() && !Files.isDirectory(local.get())) {
      throw Errors.tableNotFound(location, null);
    }
    try {
      String start = listingStart(storage, location);
      if (readable(storage.listFrom(location.child("_delta_log/" + start)))
          || (!start.equals("0") && readable(storage.listFrom(location.child("_delta_log/0"))))) {
        return;
      }
    } catch (FileNotFoundException e) {
      throw Errors.tableNotFound(location, e);
    } catch (IOException e) {
      throw Errors.operationFailed("reading the log's listing of " + location, e);
    }
    throw Errors.tableNotFound(location, null);
  }

  private static boolean readable(List<StoredObject> log) {
    return log.stream()
        .map(LogFile::of)
        .flatMap(Optional::stream)
        .anyMatch(f -> f.kind() != LogFileKind.CHECKSUM);
  }

  /**
   * The name the log's listing starts at: the 20-digit version {@code _last_checkpoint} names, else
   * {@code 0} (no such file, one that does not name a version, or one that cannot be read).
   */
  private static String listingStart(Storage storage, TableLocation location) {
    try (InputStream in = storage.openFrom(location.child("_delta_log/_last_checkpoint"), 0)) {
      JsonNode version = new ObjectMapper().readTree(in.readNBytes(64 * 1024)).path("version");
      if (version.canConvertToLong() && version.asLong() >= 0) {
        return String.format(Locale.ROOT, "%020d", version.asLong());
      }
    } catch (FileNotFoundException e) {
      // No checkpoint yet.
    } catch (IOException e) {
      // A hint that cannot be read (not JSON, not text, not a file, a failed read): the whole log
      // says, as kernel lists it whole then. A listing that fails too is reported as such.
      LOG.log(
          Level.WARNING,
          "_delta_log/_last_checkpoint could not be read, the log is listed from its start:"
              + " table={0} error={1}",
          location,
          e.toString());
    }
    return "0";
  }

  /**
   * Latency probe configuration from the environment ({@code COMPACTOR_PROBE_*}, see {@link
   * ProbeSettings#fromEnvironment}).
   *
   * @throws company.data.compactor.error.CompactorException INVALID_REQUEST naming each variable,
   *     its value and the rule it breaks
   */
  public static ProbeSettings probeSettings(Map<String, String> environment) {
    return ProbeSettings.fromEnvironment(environment);
  }

  /**
   * The pipeline for one admitted table (see {@code admission.Admission}), for work that holds no
   * lease (the read-only commands): kernel over the location's storage, DuckDB bounded by {@link
   * #rewriteSettings}, telemetry appended as JSON lines under {@code workDir}.
   */
  public static MaintenancePipeline pipeline(
      TableLocation location, Path workDir, Map<String, String> environment) {
    return pipeline(
        location, workDir, environment, UUID.randomUUID().toString(), LeaseGuard.UNGUARDED);
  }

  /**
   * As {@link #pipeline(TableLocation, Path, Map)}, reporting {@code executionId} as its run and
   * asking {@code guard} before each commit and before vacuum (fencing, see {@link LeasedRuns}).
   */
  public static MaintenancePipeline pipeline(
      TableLocation location,
      Path workDir,
      Map<String, String> environment,
      String executionId,
      LeaseGuard guard) {
    RewriteSettings rewriteSettings = rewriteSettings(environment);
    ProbeSettings probeSettings = probeSettings(environment);
    Storage storage = storageFor(location, workDir, environment);
    KernelSnapshotShelf shelf = new KernelSnapshotShelf();
    KernelDeltaTables tables = new KernelDeltaTables(storage, shelf);
    Clock clock = Clock.systemUTC();
    KernelRewriteCommitter committer =
        new KernelRewriteCommitter(storage, clock, AwsClients.retryPolicy(environment), shelf);
    return new MaintenancePipeline(
        new PipelinePorts(
            tables,
            new DemoSeeder(
                storage,
                tables,
                KernelTableWriter.withDuckDbDataFiles(
                    storage, workDir.resolve(SCRATCH_RELATIVE_PATH))),
            new CompactionExecutor(
                    storage,
                    committer,
                    new KernelDeletionVectorLoader(storage),
                    rewriteSettings,
                    workDir.resolve(SCRATCH_RELATIVE_PATH),
                    clock)
                .guardedBy(guard),
            new StorageReadProbe(storage, probeSettings, workDir.resolve(PROBE_RELATIVE_PATH)),
            new VacuumExecutor(
                    storage, new KernelLogReader(storage), committer, new VacuumPlanner(clock))
                .guardedBy(guard),
            new LogCleanupExecutor(
                    storage, new KernelTableCheckpointer(storage), new LogCleanupPlanner(clock))
                .guardedBy(guard),
            new Sweeper(
                storage,
                List.of(
                    workDir.resolve(SCRATCH_RELATIVE_PATH),
                    workDir.resolve(UPLOADS_RELATIVE_PATH),
                    workDir.resolve(PROBE_RELATIVE_PATH)),
                new SweepPolicy(leaseTtl(environment), Retention.FLOOR),
                clock),
            telemetry(workDir, environment),
            publisher(workDir, environment),
            notifier(environment),
            clock,
            () -> executionId,
            guard));
  }

  /** The variable naming where fan-out plans go (a path or an s3:// prefix). */
  public static final String PLAN_PREFIX_VARIABLE = "COMPACTOR_PLAN_PREFIX";

  /** Fan-out plans go here, relative to the work directory, unless the variable says otherwise. */
  public static final String PLANS_RELATIVE_PATH = ".delta-compactor/plans";

  /**
   * The variable giving one invocation's rewrite throughput, MB/s (see {@link ExecutionBudget}).
   */
  public static final String REWRITE_MBPS_VARIABLE = "COMPACTOR_REWRITE_MB_PER_SECOND";

  /** The variable giving one invocation's compaction budget, in seconds. */
  public static final String COMPACTION_BUDGET_VARIABLE = "COMPACTOR_COMPACTION_BUDGET_SECONDS";

  /**
   * Where fan-out plans are stored under their run id: {@code COMPACTOR_PLAN_PREFIX} (a local path
   * or an {@code s3://} prefix) when set, else {@code <work-dir>/.delta-compactor/plans}.
   *
   * @throws company.data.compactor.error.CompactorException INVALID_REQUEST for a malformed prefix
   */
  public static PlanStore plans(Path workDir, Map<String, String> environment) {
    String prefix = environment.get(PLAN_PREFIX_VARIABLE);
    TableLocation base;
    try {
      base =
          TableLocation.parse(
              prefix == null || prefix.isBlank() ? PLANS_RELATIVE_PATH : prefix, workDir);
    } catch (IllegalArgumentException e) {
      throw Errors.invalidRequest(
          List.of(new Violation(PLAN_PREFIX_VARIABLE, prefix, e.getMessage())));
    }
    return new PlanStore(storageFor(base, workDir, environment), base);
  }

  /**
   * The fan-out steps of one run over {@code location} (see {@link FanOutPipeline}), wired as
   * {@link #pipeline(TableLocation, Path, Map, String, LeaseGuard)}.
   */
  public static FanOutPipeline fanOut(
      TableLocation location,
      Path workDir,
      Map<String, String> environment,
      String runId,
      LeaseGuard guard) {
    return new FanOutPipeline(
        pipeline(location, workDir, environment, runId, guard),
        plans(workDir, environment),
        new LogRewriteLookup(storageFor(location, workDir, environment)));
  }

  /**
   * One invocation's budget: {@code COMPACTOR_REWRITE_MB_PER_SECOND} (default {@value
   * ExecutionBudget#DEFAULT_REWRITE_MB_PER_SECOND}) and {@code COMPACTOR_COMPACTION_BUDGET_SECONDS}
   * (default 600).
   *
   * @throws company.data.compactor.error.CompactorException INVALID_REQUEST naming a malformed
   *     variable
   */
  public static ExecutionBudget executionBudget(Map<String, String> environment) {
    ExecutionBudget defaults = ExecutionBudget.defaults();
    String rate = environment.get(REWRITE_MBPS_VARIABLE);
    double mbPerSecond = defaults.rewriteMbPerSecond();
    if (rate != null && !rate.isBlank()) {
      try {
        mbPerSecond = Double.parseDouble(rate.strip());
      } catch (NumberFormatException e) {
        mbPerSecond = Double.NaN;
      }
      if (!(mbPerSecond > 0) || Double.isInfinite(mbPerSecond)) {
        throw Errors.invalidRequest(
            List.of(new Violation(REWRITE_MBPS_VARIABLE, rate, "must be a number of MB/s > 0")));
      }
    }
    Duration budget =
        wholeNumber(environment, COMPACTION_BUDGET_VARIABLE, 1, "seconds").stream()
            .mapToObj(Duration::ofSeconds)
            .findFirst()
            .orElse(defaults.compactionBudget());
    return new ExecutionBudget(mbPerSecond, budget);
  }

  /** The variable naming where HTML reports go (a path or an s3:// prefix). */
  public static final String REPORT_PREFIX_VARIABLE = "COMPACTOR_REPORT_PREFIX";

  /**
   * HTML reports go here, relative to the work directory, unless {@code COMPACTOR_REPORT_PREFIX}
   * says otherwise.
   */
  public static final String REPORTS_RELATIVE_PATH = ".delta-compactor/reports";

  /**
   * Where each run's HTML page goes: below {@code COMPACTOR_REPORT_PREFIX} (a local path or an
   * {@code s3://} prefix) when set, else {@code <work-dir>/.delta-compactor/reports}.
   */
  public static ReportPublisher publisher(Path workDir, Map<String, String> environment) {
    String prefix = environment.get(REPORT_PREFIX_VARIABLE);
    TableLocation base;
    try {
      base =
          TableLocation.parse(
              prefix == null || prefix.isBlank() ? REPORTS_RELATIVE_PATH : prefix, workDir);
    } catch (IllegalArgumentException e) {
      throw Errors.invalidRequest(
          List.of(new Violation(REPORT_PREFIX_VARIABLE, prefix, e.getMessage())));
    }
    return new HtmlReportPublisher(storageFor(base, workDir, environment), base);
  }

  /** The variable holding the Slack incoming-webhook URL (a secret). */
  public static final String SLACK_URL_VARIABLE = "SLACK_WEBHOOK_URL";

  /**
   * The Slack notifier for {@code SLACK_WEBHOOK_URL} ({@code COMPACTOR_SLACK_MAX_ATTEMPTS}, default
   * 3; {@code COMPACTOR_SLACK_TIMEOUT_MS} per attempt, default 10,000; {@code
   * COMPACTOR_SLACK_CALL_TIMEOUT_MS} per message with its retries, default 30,000), looked up only
   * when a run first notifies, so runs without {@code notify_slack} never read the secret. Without
   * a URL, notifications are recorded as not configured.
   */
  public static Notifier notifier(Map<String, String> environment) {
    return new Notifier() {
      private Notifier resolved;

      private synchronized Notifier resolved() {
        if (resolved == null) {
          String url = environment.get(SLACK_URL_VARIABLE);
          if (url == null || url.isBlank()) {
            resolved = new NoNotifier();
          } else {
            int attempts;
            try {
              attempts =
                  Integer.parseInt(
                      environment.getOrDefault("COMPACTOR_SLACK_MAX_ATTEMPTS", "3").strip());
            } catch (NumberFormatException e) {
              attempts = 3;
            }
            resolved =
                new SlackNotifier(
                    URI.create(url.strip()),
                    Math.max(1, attempts),
                    Duration.ofMillis(500),
                    Duration.ofMillis(millis(environment, "COMPACTOR_SLACK_TIMEOUT_MS", 10_000)),
                    Duration.ofMillis(
                        millis(environment, "COMPACTOR_SLACK_CALL_TIMEOUT_MS", 30_000)));
          }
        }
        return resolved;
      }

      @Override
      public NotificationResult success(MaintenanceReport report) {
        return resolved().success(report);
      }

      @Override
      public NotificationResult failure(FailureAlert alert) {
        return resolved().failure(alert);
      }
    };
  }

  /**
   * A positive whole number of milliseconds in {@code variable}, else {@code fallback} (read when
   * Slack is first used, after the work: a malformed value must not fail the run, as with {@code
   * COMPACTOR_SLACK_MAX_ATTEMPTS}).
   */
  private static long millis(Map<String, String> environment, String variable, long fallback) {
    try {
      long value =
          Long.parseLong(environment.getOrDefault(variable, String.valueOf(fallback)).strip());
      return value > 0 ? value : fallback;
    } catch (NumberFormatException e) {
      return fallback;
    }
  }

  /**
   * The variable naming the DynamoDB telemetry table; unset means JSON lines under the work dir.
   */
  public static final String TELEMETRY_TABLE_VARIABLE = "COMPACTOR_TELEMETRY_TABLE";

  /** The variable giving telemetry items a TTL, in days. */
  public static final String TELEMETRY_TTL_VARIABLE = "COMPACTOR_TELEMETRY_TTL_DAYS";

  /**
   * Where run reports are kept and read back: the DynamoDB table {@code COMPACTOR_TELEMETRY_TABLE}
   * when set (items expire {@code COMPACTOR_TELEMETRY_TTL_DAYS} after the run when that is set),
   * else JSON lines in {@code <work-dir>/.delta-compactor/telemetry.jsonl}.
   *
   * @throws company.data.compactor.error.CompactorException INVALID_REQUEST for a malformed TTL
   */
  public static TelemetryStore telemetry(Path workDir, Map<String, String> environment) {
    String table = environment.get(TELEMETRY_TABLE_VARIABLE);
    if (table == null || table.isBlank()) {
      return new JsonLinesTelemetrySink(
          workDir.resolve(JsonLinesTelemetrySink.DEFAULT_RELATIVE_PATH));
    }
    Optional<Duration> retention =
        wholeNumber(environment, TELEMETRY_TTL_VARIABLE, 1, "days").stream()
            .mapToObj(Duration::ofDays)
            .findFirst();
    return new DynamoDbTelemetrySink(dynamoDb(environment), table.strip(), retention);
  }

  /**
   * A DynamoDB client from the standard AWS settings (endpoint {@code AWS_ENDPOINT_URL_DYNAMODB}).
   */
  private static DynamoDbClient dynamoDb(Map<String, String> environment) {
    return AwsClients.configure(DynamoDbClient.builder(), environment, "DYNAMODB").build();
  }

  /**
   * The whole number in {@code variable}, empty when it is unset.
   *
   * @throws company.data.compactor.error.CompactorException INVALID_REQUEST when it is not a whole
   *     number of {@code unit} of at least {@code min}
   */
  private static java.util.OptionalLong wholeNumber(
      Map<String, String> environment, String variable, long min, String unit) {
    return wholeNumber(environment, variable, min, Long.MAX_VALUE, unit);
  }

  private static java.util.OptionalLong wholeNumber(
      Map<String, String> environment, String variable, long min, long max, String unit) {
    String raw = environment.get(variable);
    if (raw == null || raw.isBlank()) {
      return java.util.OptionalLong.empty();
    }
    try {
      long value = Long.parseLong(raw.strip());
      if (value >= min && value <= max) {
        return java.util.OptionalLong.of(value);
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    String range = max == Long.MAX_VALUE ? " >= " + min : " from " + min + " to " + max;
    throw Errors.invalidRequest(
        List.of(new Violation(variable, raw, "must be a whole number of " + unit + range)));
  }

  /**
   * The variable naming the DynamoDB lease table; unset means leases kept with each table, in its
   * own storage ({@link TableLeaseStore}).
   */
  public static final String LEASE_TABLE_VARIABLE = "COMPACTOR_LEASE_TABLE";

  /** The variable overriding how long a lease lasts without renewal, in seconds. */
  public static final String LEASE_TTL_VARIABLE = "COMPACTOR_LEASE_TTL_SECONDS";

  /** The shortest lease TTL accepted, in seconds (the heartbeat renews every third of it). */
  public static final long MIN_LEASE_TTL_SECONDS = 3;

  /**
   * The longest lease TTL accepted, in seconds (a day): the heartbeat keeps longer runs' leases,
   * and a killed run's lease blocks its table for at most the TTL.
   */
  public static final long MAX_LEASE_TTL_SECONDS = 86_400;

  /**
   * Per-table leases: in the DynamoDB table {@code COMPACTOR_LEASE_TABLE} when set (client from the
   * environment, see {@link AwsClients}), else with each table under {@code
   * <table>/_compactor/leases/} in the table's own storage ({@link TableLeaseStore}), so runs from
   * any work directory or machine see one lease. A lease lasts {@code COMPACTOR_LEASE_TTL_SECONDS}
   * (default 1,200) without renewal; a running run renews it every third of that.
   *
   * @throws company.data.compactor.error.CompactorException INVALID_REQUEST for a malformed or too
   *     short TTL
   */
  public static Leases leases(Path workDir, Map<String, String> environment, Clock clock) {
    Duration ttl = leaseTtl(environment);
    String table = environment.get(LEASE_TABLE_VARIABLE);
    LeaseStore store =
        table == null || table.isBlank()
            ? new TableLeaseStore(location -> storageFor(location, workDir, environment))
            : new DynamoDbLeaseStore(dynamoDb(environment), table.strip());
    return new Leases(store, clock, ttl);
  }

  /**
   * How long a lease lasts without renewal: {@code COMPACTOR_LEASE_TTL_SECONDS} (3 s to a day),
   * default {@link Leases#DEFAULT_TTL}. Also how old an abandoned scratch directory must be before
   * a run's sweep removes it.
   *
   * @throws company.data.compactor.error.CompactorException INVALID_REQUEST for a malformed or too
   *     short TTL
   */
  public static Duration leaseTtl(Map<String, String> environment) {
    return wholeNumber(
            environment,
            LEASE_TTL_VARIABLE,
            MIN_LEASE_TTL_SECONDS,
            MAX_LEASE_TTL_SECONDS,
            "seconds")
        .stream()
        .mapToObj(Duration::ofSeconds)
        .findFirst()
        .orElse(Leases.DEFAULT_TTL);
  }

  /**
   * Where the webhook remembers signed requests it has seen (see {@link ReplayLedger}): the
   * DynamoDB lease table ({@code COMPACTOR_LEASE_TABLE}) when set, else files under {@code
   * workDir}.
   */
  public static ReplayLedger replays(Path workDir, Map<String, String> environment) {
    String table = environment.get(LEASE_TABLE_VARIABLE);
    return table == null || table.isBlank()
        ? new FileReplayLedger(workDir.resolve(FileReplayLedger.DEFAULT_RELATIVE_PATH))
        : new DynamoDbReplayLedger(dynamoDb(environment), table.strip());
  }
}
