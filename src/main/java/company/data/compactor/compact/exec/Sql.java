package company.data.compactor.compact.exec;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/** Quoting for the few SQL texts the rewriter builds; every name and path goes through here. */
final class Sql {

  private Sql() {}

  static String identifier(String name) {
    return "\"" + name.replace("\"", "\"\"") + "\"";
  }

  static String literal(String text) {
    return "'" + text.replace("'", "''") + "'";
  }

  static String pathList(List<Path> files) {
    return files.stream()
        .map(p -> literal(p.toString()))
        .collect(Collectors.joining(", ", "[", "]"));
  }
}
