package company.data.compactor.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Reading a blueprint field from stored records of either form. */
class BlueprintRecordTest {

  @Test
  void read_takesTheBlueprintName_whenTheRecordHasIt() {
    Map<String, Object> record =
        Map.of("total_files_before", 30, "total_files", 29, "compaction_executed", true);

    assertThat(BlueprintRecord.read(record, "total_files_before")).isEqualTo(30);
    assertThat(BlueprintRecord.read(record, "compaction_executed")).isEqualTo(true);
  }

  @Test
  void read_ofAnEarlierRecord_findsTheFactUnderTheReportsName_orUnderInputs() {
    Map<String, Object> earlier =
        Map.of(
            "total_files",
            30,
            "total_small_files",
            28,
            "compacted",
            false,
            "candidate_files_count",
            4,
            "deleted_files_count",
            0,
            "files_after",
            30,
            "inputs",
            Map.of("small_file_threshold_mb", 128.0, "compaction_ratio_threshold_pct", 40.0));

    assertThat(BlueprintRecord.read(earlier, "total_files_before")).isEqualTo(30);
    assertThat(BlueprintRecord.read(earlier, "small_files_before")).isEqualTo(28);
    assertThat(BlueprintRecord.read(earlier, "compaction_executed")).isEqualTo(false);
    assertThat(BlueprintRecord.read(earlier, "vacuum_candidate_files")).isEqualTo(4);
    assertThat(BlueprintRecord.read(earlier, "vacuum_deleted_files")).isEqualTo(0);
    assertThat(BlueprintRecord.read(earlier, "files_after")).isEqualTo(30);
    assertThat(BlueprintRecord.read(earlier, "small_file_threshold_mb")).isEqualTo(128.0);
    assertThat(BlueprintRecord.read(earlier, "compaction_ratio_threshold_pct")).isEqualTo(40.0);
  }

  @Test
  void read_isNull_whenNeitherFormHasTheFact_orTheBlueprintFieldIsStoredNull() {
    Map<String, Object> vacuumRecord = new HashMap<>(Map.of("total_files", 3));
    vacuumRecord.put("read_latency_pre_ms", null);

    assertThat(BlueprintRecord.read(Map.of("total_files", 3), "read_latency_post_ms")).isNull();
    assertThat(BlueprintRecord.read(Map.of("total_files", 3), "small_file_threshold_mb")).isNull();
    assertThat(BlueprintRecord.read(vacuumRecord, "read_latency_pre_ms")).isNull();
  }
}
