package company.data.compactor.config;

import company.data.compactor.error.Violation;
import company.data.compactor.model.TableLocation;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * {@code allowed_table_prefixes}: the table locations this deployment may maintain. Empty means
 * any. A table is allowed when its URI equals a prefix or lies below it ({@code
 * s3://bucket/tables} allows {@code s3://bucket/tables/events} but not {@code
 * s3://bucket/tables-old/x}). Checked before any request is made.
 *
 * @param prefixes normalised table-location prefixes
 */
public record TableAllowlist(List<String> prefixes) {

  /** The environment variable holding comma-separated prefixes. */
  public static final String ENVIRONMENT_VARIABLE = "COMPACTOR_ALLOWED_TABLE_PREFIXES";

  public TableAllowlist {
    prefixes = List.copyOf(prefixes);
  }

  /**
   * Parses comma-separated prefixes (paths or URIs, normalised like {@code table_uri}; relative
   * paths resolve against {@code workDir}); blank means any table.
   */
  public static TableAllowlist parse(String commaSeparated, Path workDir) {
    if (commaSeparated == null || commaSeparated.isBlank()) {
      return new TableAllowlist(List.of());
    }
    return new TableAllowlist(
        Arrays.stream(commaSeparated.split(","))
            .map(String::strip)
            .filter(s -> !s.isEmpty())
            .map(s -> TableLocation.parse(s, workDir).uri())
            .toList());
  }

  /** Empty when {@code location} is allowed, else the violation naming the allowed prefixes. */
  public List<Violation> violations(TableLocation location) {
    if (prefixes.isEmpty()) {
      return List.of();
    }
    String uri = location.uri();
    boolean allowed = prefixes.stream().anyMatch(p -> uri.equals(p) || uri.startsWith(p + "/"));
    return allowed
        ? List.of()
        : List.of(new Violation(
            InputKey.TABLE_URI.key(),
            uri,
            "is not under an allowed table prefix (" + String.join(", ", prefixes)
                + "); ask the operator to add it to " + ENVIRONMENT_VARIABLE));
  }
}
