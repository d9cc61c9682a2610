package company.data.compactor.model;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one version of a Delta table holds.
 *
 * @param location where the table lives
 * @param version the log version read
 * @param schema columns and partition columns
 * @param activeFiles every data file the version references, in log order
 * @param properties the table's configuration ({@code delta.*} properties and others)
 * @param features names of every table feature the protocol supports, explicitly or implied by its
 *     reader/writer versions (e.g. {@code deletionVectors}, {@code columnMapping})
 * @param unwritableFeatures those of {@code features} the Delta writer refuses to commit to on this
 *     table as it is: features it writes only while unused (a CHECK constraint defined, a generated
 *     or identity column, a column invariant). Empty when unknown.
 */
public record TableSnapshot(
    TableLocation location,
    long version,
    TableSchema schema,
    List<DataFile> activeFiles,
    Map<String, String> properties,
    Set<String> features,
    Set<String> unwritableFeatures) {

  public TableSnapshot {
    activeFiles = List.copyOf(activeFiles);
    properties = Map.copyOf(properties);
    features = Set.copyOf(features);
    unwritableFeatures = Set.copyOf(unwritableFeatures);
  }

  /** A snapshot with no feature known to be unwritable. */
  public TableSnapshot(
      TableLocation location,
      long version,
      TableSchema schema,
      List<DataFile> activeFiles,
      Map<String, String> properties,
      Set<String> features) {
    this(location, version, schema, activeFiles, properties, features, Set.of());
  }
}
