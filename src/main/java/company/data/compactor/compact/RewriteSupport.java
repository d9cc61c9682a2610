package company.data.compactor.compact;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which table features the rewrite path handles correctly. Reading a feature is not writing it
 * correctly: anything not listed here (type widening, row tracking, variant, clustering, Iceberg
 * compatibility, catalog-managed tables, and features not yet known) is refused before any file is
 * written, and so is a listed feature the Delta writer (kernel 4.4) commits to only while it is
 * unused: CHECK constraints, generated and identity columns, invariants. Deletion vectors are
 * rewritten: the rows a vector deletes are dropped and the outputs carry none. Column mapping
 * ({@code name} and {@code id} modes) is rewritten by physical names and field ids, never by the
 * schema's names.
 */
public final class RewriteSupport {

  /** Features a {@code dataChange=false} remove+add rewrite keeps correct. */
  public static final Set<String> SUPPORTED =
      Set.of(
          "appendOnly",
          "invariants",
          "checkConstraints",
          "changeDataFeed",
          "generatedColumns",
          "identityColumns",
          "timestampNtz",
          "domainMetadata",
          "inCommitTimestamp",
          "vacuumProtocolCheck",
          "checkpointProtection",
          "v2Checkpoint",
          "deletionVectors",
          "columnMapping");

  private RewriteSupport() {}

  /**
   * What makes {@code feature} one the Delta writer will not commit to on a table, in words for an
   * error message ("a CHECK constraint is defined").
   */
  public static String inUse(String feature) {
    return switch (feature) {
      case "checkConstraints" -> "a CHECK constraint is defined";
      case "generatedColumns" -> "a column is generated";
      case "identityColumns" -> "a column is an identity column";
      case "invariants" -> "a column has an invariant";
      default -> "the table uses it";
    };
  }

  /** The table's features the rewrite path does not handle, sorted; empty when it is safe. */
  public static List<String> unsupported(Set<String> features) {
    return unsupported(features, Set.of());
  }

  /**
   * As {@link #unsupported(Set)}, also naming the supported features in {@code unwritable}: those
   * the Delta writer commits only while the table does not use them ({@code checkConstraints} with
   * a constraint defined, {@code generatedColumns}, {@code identityColumns}, {@code invariants}
   * with such a column), so a commit would be refused after the outputs were written.
   */
  public static List<String> unsupported(Set<String> features, Set<String> unwritable) {
    TreeSet<String> refused = new TreeSet<>(features);
    refused.removeAll(SUPPORTED);
    unwritable.stream().filter(features::contains).forEach(refused::add);
    return List.copyOf(refused);
  }
}
