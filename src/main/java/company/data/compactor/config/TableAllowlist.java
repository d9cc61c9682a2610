package company.data.compactor.config;

import company.data.compactor.error.Errors;
import company.data.compactor.error.Violation;
import company.data.compactor.model.TableLocation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * {@code allowed_table_prefixes}: the table locations this deployment may maintain. What an empty
 * list means is the deployment's choice ({@link Empty}), made in one place (the admission step). A
 * table is allowed when its canonical location equals a prefix or lies below it, segment by segment
 * ({@code s3://bucket/tables} allows {@code s3://bucket/tables/events} but not {@code
 * s3://bucket/tables-old/x}). Prefixes and table URIs go through the same parser ({@link
 * TableLocation#parse}), which refuses {@code ..} and the other ambiguous spellings instead of
 * resolving them, so what is checked here is what storage later reads. Checked before any request
 * is made.
 *
 * @param prefixes canonical table-location prefixes
 */
public record TableAllowlist(List<TableLocation> prefixes) {

  /** The environment variable holding comma-separated prefixes. */
  public static final String ENVIRONMENT_VARIABLE = "COMPACTOR_ALLOWED_TABLE_PREFIXES";

  /** What an empty allowlist means. */
  public enum Empty {
    /** Any table: a deployment whose callers already hold the table's credentials. */
    ANY_TABLE,
    /** No table: a deployment reachable from outside, which fails closed until configured. */
    NO_TABLE
  }

  /**
   * The rule broken by every table when the allowlist is empty and means {@link Empty#NO_TABLE}.
   */
  public static final String RULE_NONE_ALLOWED =
      "no table is allowed: this deployment maintains no tables until the operator sets "
          + ENVIRONMENT_VARIABLE;

  /** How the rule of a table outside the allowed prefixes begins. */
  public static final String RULE_NOT_UNDER = "is not under an allowed table prefix";

  public TableAllowlist {
    prefixes = List.copyOf(prefixes);
  }

  /** Whether {@code violation} is the allowlist's (not a broken input rule). */
  public static boolean isAllowlistViolation(Violation violation) {
    return violation.rule().equals(RULE_NONE_ALLOWED)
        || violation.rule().startsWith(RULE_NOT_UNDER);
  }

  /**
   * Parses comma-separated prefixes (paths or URIs, read like {@code table_uri}; relative paths
   * resolve against {@code workDir}); blank means any table.
   *
   * @throws company.data.compactor.error.CompactorException INVALID_REQUEST (a configuration error)
   *     naming every prefix that is not a valid table location and the rule it breaks
   */
  public static TableAllowlist parse(String commaSeparated, Path workDir) {
    if (commaSeparated == null || commaSeparated.isBlank()) {
      return new TableAllowlist(List.of());
    }
    List<String> given =
        Arrays.stream(commaSeparated.split(","))
            .map(String::strip)
            .filter(s -> !s.isEmpty())
            .toList();
    List<Violation> broken = new ArrayList<>();
    for (String prefix : given) {
      broken.addAll(TableUris.violations(ENVIRONMENT_VARIABLE, prefix));
    }
    if (!broken.isEmpty()) {
      throw Errors.invalidConfiguration(broken);
    }
    return new TableAllowlist(given.stream().map(p -> TableLocation.parse(p, workDir)).toList());
  }

  /**
   * Empty when {@code location} is allowed, else the violation naming the allowed prefixes; an
   * empty allowlist means what {@code empty} says.
   */
  public List<Violation> violations(TableLocation location, Empty empty) {
    if (prefixes.isEmpty()) {
      return empty == Empty.ANY_TABLE
          ? List.of()
          : List.of(new Violation(InputKey.TABLE_URI.key(), location.uri(), RULE_NONE_ALLOWED));
    }
    if (prefixes.stream().anyMatch(location::isAtOrUnder)) {
      return List.of();
    }
    return List.of(
        new Violation(
            InputKey.TABLE_URI.key(),
            location.uri(),
            RULE_NOT_UNDER
                + " ("
                + prefixes.stream().map(TableLocation::uri).collect(Collectors.joining(", "))
                + "); ask the operator to add it to "
                + ENVIRONMENT_VARIABLE));
  }
}
