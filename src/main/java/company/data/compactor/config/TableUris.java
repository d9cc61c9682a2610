package company.data.compactor.config;

import company.data.compactor.error.Violation;
import company.data.compactor.model.TableLocation;
import java.util.List;

/**
 * The {@code table_uri} input and the table prefixes of the configuration, read through the one
 * table-location parser ({@link TableLocation#parse}): every broken rule becomes a named violation.
 * Admission ({@code admission.Admission}) resolves a valid value to its canonical location.
 */
public final class TableUris {

  private TableUris() {}

  /**
   * One violation per rule {@code raw} breaks as a table location, each naming {@code key} and the
   * value; empty when it is a valid location.
   */
  static List<Violation> violations(String key, String raw) {
    return TableLocation.refusals(raw).stream().map(rule -> new Violation(key, raw, rule)).toList();
  }
}
