package company.data.compactor.admission;

import company.data.compactor.config.InputKey;
import company.data.compactor.config.MaintenanceRequest;
import company.data.compactor.config.RequestReader;
import company.data.compactor.config.TableAllowlist;
import company.data.compactor.error.CompactorException;
import company.data.compactor.error.Errors;
import company.data.compactor.error.Violation;
import company.data.compactor.model.TableLocation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one admission step between every entry point and the pipeline: raw inputs and a {@link
 * Trigger} in, an {@link AdmittedRun} out, or one {@link CompactorException} naming every broken
 * rule at once: the request rules ({@link RequestReader}), the canonical table location ({@link
 * TableLocation#parse}) and the allowlist, whose empty list means what the trigger's deployment
 * says ({@link Trigger.Deployment#emptyAllowlist()}). Nothing is read or written by admission, so a
 * refused run touches nothing. The same bad input gets the same message from every entry point.
 */
public final class Admission {

  private final Map<String, String> environment;
  private final Path workDir;
  private final TableAllowlist allowlist;

  private Admission(Map<String, String> environment, Path workDir, TableAllowlist allowlist) {
    this.environment = environment;
    this.workDir = workDir;
    this.allowlist = allowlist;
  }

  /**
   * The admission of a deployment configured by {@code environment} ({@value
   * TableAllowlist#ENVIRONMENT_VARIABLE}, {@value RemoteInputs#DEFAULTS_VARIABLE}); relative table
   * paths and prefixes resolve against {@code workDir}.
   *
   * @throws CompactorException INVALID_REQUEST (a configuration error, "Invalid configuration")
   *     naming every allowlist prefix that is not a valid table location
   */
  public static Admission configuredBy(Map<String, String> environment, Path workDir) {
    return new Admission(
        environment,
        workDir,
        TableAllowlist.parse(environment.get(TableAllowlist.ENVIRONMENT_VARIABLE), workDir));
  }

  /**
   * Admits one run.
   *
   * @param trigger what started it
   * @param given the caller's inputs by snake-case name (values as JSON or command-line strings)
   * @throws CompactorException INVALID_REQUEST naming every broken rule (inputs, location and
   *     allowlist together); nothing was touched
   */
  public AdmittedRun admit(Trigger trigger, Map<String, ?> given) {
    Map<String, Object> inputs =
        trigger.inputSource() == Trigger.InputSource.OVER_SERVER_DEFAULTS
            ? RemoteInputs.merge(environment, given)
            : copy(given);
    List<Violation> found = new ArrayList<>();
    MaintenanceRequest request = null;
    try {
      request = RequestReader.read(inputs);
    } catch (CompactorException e) {
      if (!e.isInvalidInput()) {
        throw e;
      }
      found.addAll(e.violations());
    }
    String tableUri = request != null ? request.tableUri() : tableUri(inputs);
    TableLocation location = null;
    if (tableUri != null && TableLocation.refusals(tableUri).isEmpty()) {
      location = TableLocation.parse(tableUri, workDir);
      found.addAll(allowlist.violations(location, trigger.deployment().emptyAllowlist()));
    }
    if (!found.isEmpty()) {
      throw Errors.invalidRequest(found);
    }
    return new AdmittedRun(trigger, request, location, inputs);
  }

  /**
   * Whether a refusal of {@link #admit} is the allowlist's alone (the webhook answers it 403, a
   * broken input 400).
   */
  public static boolean refusedByAllowlistOnly(CompactorException refusal) {
    return !refusal.violations().isEmpty()
        && refusal.violations().stream().allMatch(TableAllowlist::isAllowlistViolation);
  }

  /** The raw {@code table_uri} when it is a string (or absent: the default), else null. */
  private static String tableUri(Map<String, Object> inputs) {
    Object raw = inputs.get(InputKey.TABLE_URI.key());
    if (raw == null) {
      return MaintenanceRequest.DEFAULT_TABLE_URI;
    }
    return raw instanceof String s ? s : null;
  }

  private static Map<String, Object> copy(Map<String, ?> given) {
    if (given == null) {
      throw Errors.invalidRequest(
          List.of(new Violation("inputs", "null", "must be a JSON object of request inputs")));
    }
    return new LinkedHashMap<>(given);
  }
}
