package company.data.compactor.wiring;

import company.data.compactor.delta.kernel.KernelDeltaTables;
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

  private Wiring() {}

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
  public static MaintenancePipeline pipeline(TableLocation location, Path workDir) {
    Storage storage = storageFor(location);
    KernelDeltaTables tables = new KernelDeltaTables(storage);
    return new MaintenancePipeline(
        new PipelinePorts(
            tables,
            new DemoSeeder(storage, tables, new KernelTableWriter(storage)),
            new JsonLinesTelemetrySink(workDir.resolve(JsonLinesTelemetrySink.DEFAULT_RELATIVE_PATH)),
            Clock.systemUTC(),
            () -> UUID.randomUUID().toString()));
  }
}
