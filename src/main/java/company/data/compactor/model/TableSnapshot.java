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
 */
public record TableSnapshot(
    TableLocation location,
    long version,
    TableSchema schema,
    List<DataFile> activeFiles,
    Map<String, String> properties,
    Set<String> features) {

  public TableSnapshot {
    activeFiles = List.copyOf(activeFiles);
    properties = Map.copyOf(properties);
    features = Set.copyOf(features);
  }
}
