package company.data.compactor.telemetry;

import company.data.compactor.error.Errors;
import company.data.compactor.report.MaintenanceReport;
import company.data.compactor.report.ReportJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Appends each report as one JSON line to a local file; the default sink off AWS. */
public final class JsonLinesTelemetrySink implements TelemetrySink {

  /** File name under the work directory. */
  public static final String DEFAULT_RELATIVE_PATH = ".delta-compactor/telemetry.jsonl";

  private final Path file;

  /** Appends to {@code file}, creating it and its directory when missing. */
  public JsonLinesTelemetrySink(Path file) {
    this.file = file;
  }

  @Override
  public synchronized void record(MaintenanceReport report) {
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      Files.writeString(
          file,
          ReportJson.line(report) + "\n",
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw Errors.operationFailed("appending telemetry to " + file, e);
    }
  }

  @Override
  public String describe() {
    return file.toString();
  }
}
