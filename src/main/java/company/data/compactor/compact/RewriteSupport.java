package company.data.compactor.compact;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which table features the rewrite path handles correctly. Reading a feature is not writing it
 * correctly: anything not listed here (type widening, row tracking, variant, clustering, Iceberg
 * compatibility, catalog-managed tables, and features not yet known) is refused before any file is
 * written. Deletion vectors are rewritten: the rows a vector deletes are dropped and the outputs
 * carry none. Column mapping ({@code name} and {@code id} modes) is rewritten by physical names and
 * field ids, never by the schema's names.
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

  /** The table's features the rewrite path does not handle, sorted; empty when it is safe. */
  public static List<String> unsupported(Set<String> features) {
    TreeSet<String> refused = new TreeSet<>(features);
    refused.removeAll(SUPPORTED);
    return List.copyOf(refused);
  }
}
