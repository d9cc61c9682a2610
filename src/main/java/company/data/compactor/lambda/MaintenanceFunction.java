package company.data.compactor.lambda;

import company.data.compactor.config.MaintenanceRequest;
import company.data.compactor.config.RequestReader;
import company.data.compactor.config.TableUris;
import company.data.compactor.model.TableLocation;
import company.data.compactor.report.MaintenanceReport;
import company.data.compactor.report.ReportJson;
import company.data.compactor.wiring.Wiring;
import io.quarkus.funqy.Funq;
import java.nio.file.Path;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The Lambda entry point (Funqy). A direct invocation carries the request's inputs as a JSON
 * object with the design's snake-case names, e.g. {@code {"demo_mode": true}}; the result is the
 * report with the same field names as {@code bin/compactor run --json}. Invalid input fails the
 * invocation with the message naming every broken rule, before anything is touched.
 */
public class MaintenanceFunction {

  @ConfigProperty(name = "compactor.work-dir")
  String workDir;

  /** Runs the maintenance pipeline for one request. */
  @Funq("maintenance")
  public Map<String, Object> maintenance(Map<String, Object> event) {
    MaintenanceRequest request = RequestReader.read(event == null ? Map.of() : event);
    Path work = Path.of(workDir).toAbsolutePath();
    TableLocation location = TableUris.resolve(request, work);
    MaintenanceReport report = Wiring.pipeline(location, work, System.getenv()).run(request, location);
    return ReportJson.asMap(report);
  }
}
