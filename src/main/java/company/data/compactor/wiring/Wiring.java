package company.data.compactor.wiring;

import company.data.compactor.compact.exec.CompactionExecutor;
import company.data.compactor.compact.exec.RewriteSettings;
import company.data.compactor.delta.kernel.KernelDeltaTables;
import company.data.compactor.delta.kernel.KernelRewriteCommitter;
import company.data.compactor.error.Violation;
import java.util.List;
import java.util.Map;
import company.data.compactor.delta.kernel.KernelTableWriter;
import company.data.compactor.demo.DemoSeeder;
import company.data.compactor.error.Errors;
import company.data.compactor.model.TableLocation;
import company.data.compactor.pipeline.MaintenancePipeline;
import company.data.compactor.pipeline.PipelinePorts;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.storage.Storage;
import company.data.compactor.telemetry.JsonLinesTelemetrySink;
import java.nio.file.Path;
import java.time.Clock;
import java.util.UUID;

/**
 * Assembles adapters into a pipeline for the entry points ({@code cli}, {@code lambda}); nothing
 * else imports this package.
 */
public final class Wiring {

  /** Per-run scratch directories go under this, relative to the work directory. */
  public static final String SCRATCH_RELATIVE_PATH = ".delta-compactor/scratch";

  private Wiring() {}

  /**
   * DuckDB bounds from the environment: {@code COMPACTOR_DUCKDB_MEMORY_LIMIT} (default 2GB),
   * {@code COMPACTOR_DUCKDB_THREADS} (default: every core), {@code COMPACTOR_PARQUET_COMPRESSION}
   * ({@code zstd} default, or {@code snappy}).
   *
   * @throws company.data.compactor.error.CompactorException INVALID_REQUEST naming a malformed
   *     variable
   */
  public static RewriteSettings rewriteSettings(Map<String, String> environment) {
    RewriteSettings defaults = RewriteSettings.defaults();
    String memory = environment.getOrDefault("COMPACTOR_DUCKDB_MEMORY_LIMIT", defaults.memoryLimit());
    String threads = environment.getOrDefault("COMPACTOR_DUCKDB_THREADS", String.valueOf(defaults.threads()));
    String compression = environment.getOrDefault("COMPACTOR_PARQUET_COMPRESSION", defaults.compression());
    try {
      return new RewriteSettings(memory.strip(), Integer.parseInt(threads.strip()), compression.strip());
    } catch (IllegalArgumentException e) {
      throw Errors.invalidRequest(List.of(new Violation("environment", memory + "/" + threads + "/" + compression, e.getMessage())));
    }
  }

  /**
   * The storage a location lives on.
   *
   * @throws company.data.compactor.error.CompactorException UNSUPPORTED_TABLE for s3:// until the
   *     S3 adapter is part of the build
   */
  public static Storage storageFor(TableLocation location) {
    return switch (location.scheme()) {
      case FILE -> new LocalStorage();
      case S3 ->
          throw Errors.unsupportedTable(
              location,
              "s3:// tables need the S3 storage adapter, which is not part of this build yet;"
                  + " use a local path or file: URI");
    };
  }

  /**
   * The pipeline for one table: kernel over the location's storage, telemetry appended as JSON
   * lines under {@code workDir}.
   */
  public static MaintenancePipeline pipeline(
      TableLocation location, Path workDir, RewriteSettings rewriteSettings) {
    Storage storage = storageFor(location);
    KernelDeltaTables tables = new KernelDeltaTables(storage);
    Clock clock = Clock.systemUTC();
    return new MaintenancePipeline(
        new PipelinePorts(
            tables,
            new DemoSeeder(storage, tables, new KernelTableWriter(storage)),
            new CompactionExecutor(
                storage,
                new KernelRewriteCommitter(storage, clock),
                rewriteSettings,
                workDir.resolve(SCRATCH_RELATIVE_PATH),
                clock),
            new JsonLinesTelemetrySink(workDir.resolve(JsonLinesTelemetrySink.DEFAULT_RELATIVE_PATH)),
            clock,
            () -> UUID.randomUUID().toString()));
  }
}
