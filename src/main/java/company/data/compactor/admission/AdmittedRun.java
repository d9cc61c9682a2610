package company.data.compactor.admission;

import company.data.compactor.config.MaintenanceRequest;
import company.data.compactor.model.TableLocation;
import java.util.Map;
import java.util.Objects;

/**
 * A run that passed admission ({@link Admission#admit}): its request obeys every rule, its table
 * location is canonical and allowed in this deployment. Downstream (the lease, the pipeline) takes
 * it as valid and does not check the same rules again; only what needs the table itself (columns of
 * {@code z_order_columns}, the partition filter against the schema, table features) is checked once
 * the table is read.
 *
 * @param trigger what started the run
 * @param request the validated request
 * @param location the table's canonical location
 * @param inputs the inputs as admitted (after server defaults, for remote triggers), snake-case
 */
public record AdmittedRun(
    Trigger trigger,
    MaintenanceRequest request,
    TableLocation location,
    Map<String, Object> inputs) {

  public AdmittedRun {
    Objects.requireNonNull(trigger, "trigger");
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(location, "location");
    inputs = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(inputs));
  }
}
