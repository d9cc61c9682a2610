package company.data.compactor.publish;

import company.data.compactor.error.Errors;
import company.data.compactor.model.TableKeys;
import company.data.compactor.model.TableLocation;
import company.data.compactor.report.HtmlReport;
import company.data.compactor.report.MaintenanceReport;
import company.data.compactor.storage.Storage;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Optional;

/**
 * Writes each run's {@link HtmlReport} through the storage port to {@code <base>/<table
 * slug>/<evaluated_at>-<execution_id>.html}: a local directory, or an S3 prefix in AWS.
 */
public final class HtmlReportPublisher implements ReportPublisher {

  private static final DateTimeFormatter FILE_TIME =
      DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss.SSS'Z'").withZone(ZoneOffset.UTC);

  private final Storage storage;
  private final TableLocation base;

  /** Pages go below {@code base}, on {@code storage}. */
  public HtmlReportPublisher(Storage storage, TableLocation base) {
    this.storage = storage;
    this.base = base;
  }

  @Override
  public Optional<String> publish(MaintenanceReport report) {
    TableLocation table = new TableLocation(report.tableUri());
    String path =
        base.child(
            TableKeys.slug(table)
                + "/"
                + FILE_TIME.format(Instant.parse(report.evaluatedAt()))
                + "-"
                + report.executionId()
                + ".html");
    try (OutputStream out = storage.create(path)) {
      out.write(HtmlReport.render(report).getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw Errors.operationFailed(
          "writing the HTML report of run " + report.executionId() + " to " + path, e);
    }
    return Optional.of(path);
  }
}
