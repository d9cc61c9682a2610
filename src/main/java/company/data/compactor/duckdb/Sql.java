package company.data.compactor.duckdb;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Quoting for the few SQL texts the compactor builds for DuckDB (rewriter, verifier, probe, the
 * demo's data files); every name and path goes through here.
 */
public final class Sql {

  private Sql() {}

  /** {@code name} as a double-quoted identifier. */
  public static String identifier(String name) {
    return "\"" + name.replace("\"", "\"\"") + "\"";
  }

  /** {@code text} as a single-quoted string literal. */
  public static String literal(String text) {
    return "'" + text.replace("'", "''") + "'";
  }

  /** {@code files} as a list literal of path strings. */
  public static String pathList(List<Path> files) {
    return files.stream()
        .map(p -> literal(p.toString()))
        .collect(Collectors.joining(", ", "[", "]"));
  }
}
