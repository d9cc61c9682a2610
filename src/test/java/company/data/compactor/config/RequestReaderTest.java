package company.data.compactor.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import company.data.compactor.error.CompactorException;
import company.data.compactor.error.Violation;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RequestReaderTest {

  private static CompactorException invalid(Map<String, ?> inputs) {
    return catchThrowableOfType(CompactorException.class, () -> RequestReader.read(inputs));
  }

  @Test
  void read_appliesBlueprintDefaults_whenNothingGiven() {
    MaintenanceRequest request = RequestReader.read(Map.of());

    assertThat(request).isEqualTo(MaintenanceRequest.defaults());
    assertThat(request.demoMode()).isTrue();
    assertThat(request.tableUri()).isEqualTo("demo_delta_table");
    assertThat(request.smallFileThresholdMb()).isEqualTo(128.0);
    assertThat(request.compactionRatioThresholdPct()).isEqualTo(40.0);
    assertThat(request.targetFileSizeMb()).isEqualTo(128.0);
    assertThat(request.zOrderColumns()).containsExactly("customer_id");
    assertThat(request.vacuumRetentionHours()).isEqualTo(168);
    assertThat(request.vacuumDryRun()).isTrue();
    assertThat(request.latencySlaMs()).isEqualTo(150.0);
    assertThat(request.notifySlack()).isFalse();
  }

  @Test
  void read_parsesStringsAndJsonValuesAlike() {
    MaintenanceRequest fromStrings =
        RequestReader.read(
            Map.of(
                "demo_mode", "false",
                "small_file_threshold_mb", "0.5",
                "z_order_columns", "a, b",
                "vacuum_retention_hours", "200"));
    MaintenanceRequest fromJson =
        RequestReader.read(
            Map.of(
                "demo_mode",
                false,
                "small_file_threshold_mb",
                0.5,
                "z_order_columns",
                List.of("a", "b"),
                "vacuum_retention_hours",
                200));

    assertThat(fromStrings).isEqualTo(fromJson);
    assertThat(fromJson.zOrderColumns()).containsExactly("a", "b");
  }

  @Test
  void read_emptyZOrderList_meansBinPackingOnly() {
    assertThat(RequestReader.read(Map.of("z_order_columns", "")).zOrderColumns()).isEmpty();
    assertThat(RequestReader.read(Map.of("z_order_columns", List.of())).zOrderColumns()).isEmpty();
  }

  @Test
  void read_refusesRetentionBelow168Hours() {
    CompactorException e = invalid(Map.of("vacuum_retention_hours", 167));

    assertThat(e.isInvalidInput()).isTrue();
    assertThat(e.violations())
        .singleElement()
        .satisfies(
            v -> {
              assertThat(v.key()).isEqualTo("vacuum_retention_hours");
              assertThat(v.value()).isEqualTo("167");
              assertThat(v.rule()).startsWith("must be >= 168");
            });
  }

  @Test
  void read_acceptsRetentionOfExactly168Hours() {
    assertThat(RequestReader.read(Map.of("vacuum_retention_hours", 168)).vacuumRetentionHours())
        .isEqualTo(168);
  }

  @Test
  void read_refusesNonPositiveSmallFileThreshold() {
    assertThat(invalid(Map.of("small_file_threshold_mb", 0)).violations())
        .containsExactly(new Violation("small_file_threshold_mb", "0", "must be > 0"));
  }

  @Test
  void read_refusesRatioOutsideZeroExclusiveToHundredInclusive() {
    assertThat(invalid(Map.of("compaction_ratio_threshold_pct", 0)).violations())
        .containsExactly(
            new Violation("compaction_ratio_threshold_pct", "0", "must be > 0 and <= 100"));
    assertThat(invalid(Map.of("compaction_ratio_threshold_pct", 100.5)).violations())
        .containsExactly(
            new Violation("compaction_ratio_threshold_pct", "100.5", "must be > 0 and <= 100"));
    assertThat(
            RequestReader.read(Map.of("compaction_ratio_threshold_pct", 100))
                .compactionRatioThresholdPct())
        .isEqualTo(100.0);
  }

  @Test
  void read_refusesNonPositiveTargetSize() {
    assertThat(invalid(Map.of("target_file_size_mb", -1)).violations())
        .containsExactly(new Violation("target_file_size_mb", "-1", "must be > 0"));
  }

  @Test
  void read_reportsEveryViolationAtOnce_inOneMessage() {
    Map<String, Object> inputs = new HashMap<>();
    inputs.put("vacuum_retention_hours", 24);
    inputs.put("small_file_threshold_mb", 0);
    inputs.put("compaction_ratio_threshold_pct", 150);
    inputs.put("target_file_size_mb", 0);
    inputs.put("latency_sla_ms", "fast");
    inputs.put("demo_mode", "yes");
    inputs.put("table_uri", "ftp://host/t");
    inputs.put("zorder", "a");

    CompactorException e = invalid(inputs);

    assertThat(e.violations())
        .extracting(Violation::key)
        .containsExactlyInAnyOrder(
            "zorder",
            "demo_mode",
            "latency_sla_ms",
            "table_uri",
            "small_file_threshold_mb",
            "compaction_ratio_threshold_pct",
            "target_file_size_mb",
            "vacuum_retention_hours");
    assertThat(e.getMessage())
        .startsWith("Invalid request, 8 rules broken: ")
        .contains("vacuum_retention_hours=24: must be >= 168")
        .contains("latency_sla_ms=fast: must be a number")
        .contains("demo_mode=yes: must be true or false")
        .contains("zorder=a: is not a known input")
        .contains(
            "table_uri=ftp://host/t: must be a local path, a file: URI or an s3://bucket/path URI")
        .endsWith("Nothing was read or written; fix the values and run again.");
  }

  @Test
  void read_reportsAMalformedValueOnce_notAlsoAsARuleViolation() {
    assertThat(invalid(Map.of("vacuum_retention_hours", "a week")).violations())
        .containsExactly(
            new Violation("vacuum_retention_hours", "a week", "must be a whole number"));
    assertThat(invalid(Map.of("vacuum_retention_hours", 170.5)).violations())
        .containsExactly(
            new Violation("vacuum_retention_hours", "170.5", "must be a whole number"));
  }

  @Test
  void read_refusesNonFiniteNumbers() {
    assertThat(invalid(Map.of("latency_sla_ms", "NaN")).violations())
        .containsExactly(new Violation("latency_sla_ms", "NaN", "must be a finite number"));
  }

  @Test
  void read_refusesDuplicateAndBlankZOrderColumns() {
    assertThat(invalid(Map.of("z_order_columns", "a,a")).violations())
        .containsExactly(new Violation("z_order_columns", "[a,a]", "must not name a twice"));
    assertThat(invalid(Map.of("z_order_columns", "a,,b")).violations())
        .extracting(Violation::rule)
        .containsExactly("must not contain blank names");
  }

  @Test
  void read_refusesAnS3UriWithoutBucket() {
    assertThat(invalid(Map.of("table_uri", "s3:///key")).violations())
        .extracting(Violation::key)
        .containsExactly("table_uri");
  }
}
