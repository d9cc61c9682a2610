package company.data.compactor.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.ObjectNode;
import company.data.compactor.testing.CliRunner;
import company.data.compactor.testing.CliRunner.Result;
import company.data.compactor.testing.DynoxideServer;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Every stored run record, in DynamoDB (Dynoxide) and in the local JSON-lines file, carries the
 * blueprint's 21 fields at its top level, with the blueprint's types, and values that say what the
 * report says.
 */
class BlueprintRecordIT {

  /** The blueprint's record, field by field, with the JSON type of each. */
  private static final Map<String, JsonNodeType> BLUEPRINT = blueprint();

  /** Where the report (its current names, a contract of their own) states each blueprint field. */
  private static final Map<String, String> IN_REPORT = inReport();

  /** Only these may be null, and only when nothing was measured or rewritten. */
  private static final Set<String> NULLABLE =
      Set.of(
          "read_latency_pre_ms",
          "read_latency_post_ms",
          "latency_speedup_pct",
          "latency_regression_detected");

  /** What DynamoDB adds to a record: its keys and its TTL. */
  private static final Set<String> ITEM_ONLY = Set.of("table_key", "run_key", "expires_at");

  @TempDir Path dynamoWork;
  @TempDir Path localWork;

  @Test
  void
      demoRun_storesTheBlueprintFields_atTheTopLevel_inDynamoDbAndTheLocalFile_withTheReportsValues()
          throws Exception {
    String table = DynoxideServer.shared().newTelemetryTable();
    JsonNode dynamoReport =
        report(
            CliRunner.run(
                dynamoEnvironment(table), "run", "--work-dir", dynamoWork.toString(), "--json"));
    JsonNode localReport =
        report(CliRunner.run(Map.of(), "run", "--work-dir", localWork.toString(), "--json"));

    List<JsonNode> items = items(table);
    List<String> lines = Files.readAllLines(localWork.resolve(".delta-compactor/telemetry.jsonl"));

    assertThat(items).hasSize(1);
    assertThat(lines).hasSize(1);
    JsonNode item = items.get(0);
    JsonNode line = new ObjectMapper().readTree(lines.get(0));
    assertThat(fieldNames(item)).containsAll(BLUEPRINT.keySet());
    assertThat(fieldNames(line)).containsAll(BLUEPRINT.keySet());
    Set<String> itemFields = fieldNames(item);
    itemFields.removeAll(ITEM_ONLY);
    assertThat(itemFields)
        .as("the DynamoDB item and the local record hold the same fields")
        .isEqualTo(fieldNames(line));
    assertBlueprintRecord(item, dynamoReport, Set.of());
    assertBlueprintRecord(line, localReport, Set.of());
    assertThat(item.get("compaction_executed").booleanValue()).isTrue();
    assertThat(item.get("total_files_before").intValue()).isEqualTo(30);
    assertThat(item.get("files_after").intValue()).isEqualTo(3);
    assertThat(line.get("small_files_before").intValue()).isEqualTo(30);
    assertThat(line.get("small_file_threshold_mb").doubleValue()).isEqualTo(128.0);
    assertThat(line.get("compaction_ratio_threshold_pct").doubleValue()).isEqualTo(40.0);
  }

  @Test
  void
      runThatRewritesNothing_andVacuumOnItsOwn_storeEveryBlueprintField_withNullWhereNothingWasMeasured()
          throws Exception {
    String table = DynoxideServer.shared().newTelemetryTable();
    Map<String, String> env = dynamoEnvironment(table);
    String work = dynamoWork.toString();
    Result seeded = CliRunner.run(env, "run", "--work-dir", work);
    assertThat(seeded.code()).as(seeded.err()).isZero();
    // Inputs other than the defaults, and a threshold that leaves no file small: nothing to
    // rewrite.
    JsonNode again =
        report(
            CliRunner.run(
                env,
                "run",
                "--work-dir",
                work,
                "--demo-mode",
                "false",
                "--small-file-threshold-mb",
                "0.001",
                "--compaction-ratio-threshold-pct",
                "55.5",
                "--json"));
    JsonNode vacuum =
        report(
            CliRunner.run(
                env, "vacuum", "--work-dir", work, "--table-uri", "demo_delta_table", "--json"));

    Map<String, JsonNode> byExecution =
        items(table).stream()
            .collect(Collectors.toMap(i -> i.get("execution_id").textValue(), i -> i));
    JsonNode nothingRewritten = byExecution.get(again.get("execution_id").textValue());
    JsonNode vacuumOnly = byExecution.get(vacuum.get("execution_id").textValue());

    assertBlueprintRecord(
        nothingRewritten, again, Set.of("read_latency_post_ms", "latency_speedup_pct"));
    assertThat(nothingRewritten.get("compaction_executed").booleanValue()).isFalse();
    assertThat(nothingRewritten.get("read_latency_pre_ms").isNumber()).isTrue();
    assertThat(nothingRewritten.get("files_after").intValue()).isEqualTo(3);
    assertThat(nothingRewritten.get("files_reduced").intValue()).isZero();
    assertThat(nothingRewritten.get("total_files_before").intValue()).isEqualTo(3);
    assertThat(nothingRewritten.get("small_files_before").intValue()).isZero();
    assertThat(nothingRewritten.get("small_file_threshold_mb").doubleValue()).isEqualTo(0.001);
    assertThat(nothingRewritten.get("compaction_ratio_threshold_pct").doubleValue())
        .isEqualTo(55.5);

    // The vacuum command neither probes nor compacts: its report has no such sections.
    assertThat(vacuum.has("compacted")).isFalse();
    assertBlueprintRecord(vacuumOnly, vacuum, NULLABLE);
    assertThat(vacuumOnly.get("compaction_executed").booleanValue()).isFalse();
    assertThat(vacuumOnly.get("files_after").intValue())
        .isEqualTo(vacuum.get("total_files").intValue())
        .isEqualTo(3);
    assertThat(vacuumOnly.get("files_reduced").intValue()).isZero();
    assertThat(vacuumOnly.get("bytes_compacted").longValue()).isZero();
    assertThat(vacuumOnly.get("bytes_compacted_mb").doubleValue()).isZero();
  }

  /**
   * {@code record} has every blueprint field at its top level, of the blueprint's type (null only
   * for {@code nulls}, which must be null), and each value equals the report's for the same fact
   * wherever the report states it.
   */
  private static void assertBlueprintRecord(JsonNode record, JsonNode report, Set<String> nulls) {
    BLUEPRINT.forEach(
        (field, type) -> {
          JsonNode value = record.get(field);
          assertThat(value).as("%s is at the top level", field).isNotNull();
          if (nulls.contains(field)) {
            assertThat(value.isNull()).as("%s is null: nothing was measured", field).isTrue();
          } else {
            assertThat(value.getNodeType()).as("type of %s", field).isEqualTo(type);
          }
          JsonNode reported = report.at(IN_REPORT.get(field));
          if (!reported.isMissingNode()) {
            assertSame(field, value, reported);
          }
        });
  }

  private static void assertSame(String field, JsonNode stored, JsonNode reported) {
    if (stored.isNumber() && reported.isNumber()) {
      assertThat(stored.decimalValue())
          .as("%s: stored %s, reported %s", field, stored, reported)
          .isEqualByComparingTo(reported.decimalValue());
    } else {
      assertThat(stored).as(field).isEqualTo(reported);
    }
  }

  private static Map<String, JsonNodeType> blueprint() {
    Map<String, JsonNodeType> fields = new LinkedHashMap<>();
    fields.put("table_uri", JsonNodeType.STRING);
    fields.put("evaluated_at", JsonNodeType.STRING);
    fields.put("execution_id", JsonNodeType.STRING);
    fields.put("small_file_threshold_mb", JsonNodeType.NUMBER);
    fields.put("compaction_ratio_threshold_pct", JsonNodeType.NUMBER);
    fields.put("total_files_before", JsonNodeType.NUMBER);
    fields.put("small_files_before", JsonNodeType.NUMBER);
    fields.put("small_file_ratio_pct", JsonNodeType.NUMBER);
    fields.put("compaction_executed", JsonNodeType.BOOLEAN);
    fields.put("files_after", JsonNodeType.NUMBER);
    fields.put("files_reduced", JsonNodeType.NUMBER);
    fields.put("bytes_compacted", JsonNodeType.NUMBER);
    fields.put("bytes_compacted_mb", JsonNodeType.NUMBER);
    fields.put("read_latency_pre_ms", JsonNodeType.NUMBER);
    fields.put("read_latency_post_ms", JsonNodeType.NUMBER);
    fields.put("latency_speedup_pct", JsonNodeType.NUMBER);
    fields.put("latency_regression_detected", JsonNodeType.BOOLEAN);
    fields.put("vacuum_retention_hours", JsonNodeType.NUMBER);
    fields.put("vacuum_dry_run", JsonNodeType.BOOLEAN);
    fields.put("vacuum_candidate_files", JsonNodeType.NUMBER);
    fields.put("vacuum_deleted_files", JsonNodeType.NUMBER);
    return fields;
  }

  private static Map<String, String> inReport() {
    Map<String, String> pointers = new HashMap<>();
    BLUEPRINT.keySet().forEach(field -> pointers.put(field, "/" + field));
    pointers.put("small_file_threshold_mb", "/inputs/small_file_threshold_mb");
    pointers.put("compaction_ratio_threshold_pct", "/inputs/compaction_ratio_threshold_pct");
    pointers.put("total_files_before", "/total_files");
    pointers.put("small_files_before", "/total_small_files");
    pointers.put("compaction_executed", "/compacted");
    pointers.put("vacuum_candidate_files", "/candidate_files_count");
    pointers.put("vacuum_deleted_files", "/deleted_files_count");
    return pointers;
  }

  private static Map<String, String> dynamoEnvironment(String table) {
    Map<String, String> env = new HashMap<>(DynoxideServer.shared().environment());
    env.put("COMPACTOR_TELEMETRY_TABLE", table);
    return env;
  }

  private static JsonNode report(Result run) throws Exception {
    assertThat(run.code()).as(run.err()).isZero();
    return new ObjectMapper().readTree(run.out());
  }

  /** The table's items as JSON, each attribute as the JSON type DynamoDB stored it as. */
  private static List<JsonNode> items(String table) {
    try (DynamoDbClient dynamo = DynoxideServer.shared().client()) {
      return dynamo.scan(b -> b.tableName(table)).items().stream()
          .map(item -> json(AttributeValue.fromM(item)))
          .toList();
    }
  }

  private static JsonNode json(AttributeValue value) {
    JsonNodeFactory nodes = JsonNodeFactory.instance;
    return switch (value.type()) {
      case S -> nodes.textNode(value.s());
      case N -> nodes.numberNode(new BigDecimal(value.n()));
      case BOOL -> nodes.booleanNode(value.bool());
      case NUL -> nodes.nullNode();
      case L -> nodes.arrayNode().addAll(value.l().stream().map(BlueprintRecordIT::json).toList());
      case M -> {
        ObjectNode object = nodes.objectNode();
        value.m().forEach((k, v) -> object.set(k, json(v)));
        yield object;
      }
      default ->
          throw new AssertionError("unexpected attribute type " + value.type() + ": " + value);
    };
  }

  private static Set<String> fieldNames(JsonNode record) {
    Set<String> names = new java.util.TreeSet<>();
    record.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
