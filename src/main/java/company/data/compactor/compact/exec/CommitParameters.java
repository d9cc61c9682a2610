package company.data.compactor.compact.exec;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.compact.CompactionPlan;
import company.data.compactor.compact.Layout;
import company.data.compactor.model.DataFile;
import java.util.List;
import java.util.Map;

/**
 * What a compaction records beside its actions: Delta's {@code operationParameters} and the {@code
 * add.tags} of its outputs. Values are strings; the lists among them are JSON arrays written by
 * Jackson, never concatenated (a column named {@code we"ird} stays valid JSON).
 */
final class CommitParameters {

  private static final ObjectMapper JSON = new ObjectMapper();

  private CommitParameters() {}

  /**
   * {@code predicate}, {@code zOrderBy}, {@code targetSize}, {@code auto}, as Delta Lake records
   * OPTIMIZE.
   */
  static Map<String, String> operationParameters(CompactionPlan plan) {
    List<String> predicate =
        plan.options().partitionFilter().isAll()
            ? List.of()
            : List.of(plan.options().partitionFilter().text());
    List<String> zOrder =
        plan.options().layout() == Layout.Z_ORDER ? plan.options().zOrderColumns() : List.of();
    return Map.of(
        "predicate", jsonArray(predicate),
        "zOrderBy", jsonArray(zOrder),
        "targetSize", String.valueOf(plan.options().targetFileSizeBytes()),
        "auto", "false");
  }

  /**
   * Z-ordered files record their columns, so reruns can skip them; bin-packed files record nothing.
   */
  static Map<String, String> tags(CompactionPlan plan) {
    if (plan.options().layout() != Layout.Z_ORDER) {
      return Map.of();
    }
    return Map.of(DataFile.ZORDER_TAG, jsonArray(plan.options().zOrderColumns()));
  }

  static String jsonArray(List<String> values) {
    try {
      return JSON.writeValueAsString(values);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a list of strings could not be serialised", e);
    }
  }
}
