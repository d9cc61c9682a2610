package company.data.compactor.delta;

import company.data.compactor.model.DataFile;
import company.data.compactor.model.TableLocation;
import java.util.List;
import java.util.Map;

/**
 * One rewrite to commit: remove {@code removed} and add {@code added}, both with {@code
 * dataChange=false}, based on {@code readVersion}.
 *
 * @param location the table
 * @param readVersion the version the rewrite was planned from; conflicts are judged against it
 * @param removed the files rewritten (as the snapshot listed them)
 * @param added the files that replace them
 * @param operation the commit info's operation, e.g. {@code OPTIMIZE}
 * @param operationParameters recorded in the commit info
 * @param operationMetrics recorded in the commit info (Delta writes them as strings)
 */
public record RewriteCommit(
    TableLocation location,
    long readVersion,
    List<DataFile> removed,
    List<NewDataFile> added,
    String operation,
    Map<String, String> operationParameters,
    Map<String, String> operationMetrics) {

  public RewriteCommit {
    removed = List.copyOf(removed);
    added = List.copyOf(added);
    operationParameters = Map.copyOf(operationParameters);
    operationMetrics = Map.copyOf(operationMetrics);
  }
}
