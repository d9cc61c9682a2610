package company.data.compactor.delta.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.delta.kernel.data.Row;
import io.delta.kernel.defaults.internal.json.JsonUtils;
import io.delta.kernel.internal.actions.AddFile;
import io.delta.kernel.internal.actions.CommitInfo;
import io.delta.kernel.internal.actions.Metadata;
import io.delta.kernel.internal.actions.Protocol;
import io.delta.kernel.internal.actions.RemoveFile;
import io.delta.kernel.types.DecimalType;
import io.delta.kernel.types.DoubleType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link PrunedJsonHandler}'s rows against kernel's default parse of the same line, for the action
 * schemas kernel reads the log with and for lines written to trip a pruning parser: every line
 * either gives the default's row (compared as kernel serialises rows) or fails as the default
 * fails, with the same exception and message.
 */
class PrunedJsonRowsTest {

  private static final String ADD =
      "{\"path\":\"p=a%20b/part-0.parquet\",\"partitionValues\":{\"p\":\"a b\",\"q\":null},"
          + "\"size\":1327,\"modificationTime\":1796221724434,\"dataChange\":true,"
          + "\"stats\":\"{\\\"numRecords\\\":8,\\\"minValues\\\":{\\\"a\\\":1.5}}\","
          + "\"tags\":{\"ZORDER_BY\":\"[\\\"a\\\"]\"},"
          + "\"deletionVector\":{\"storageType\":\"u\",\"pathOrInlineDv\":\"ab^-aqEH.-t@S}K{vb[*k^\","
          + "\"offset\":4,\"sizeInBytes\":40,\"cardinality\":6,\"futureField\":{\"x\":[1,{\"y\":2}]}},"
          + "\"baseRowId\":null,\"clusteringProvider\":null,\"unknown\":{\"deep\":[[{}]]}}";
  private static final String REMOVE =
      "{\"path\":\"hour=h00190/part-00000-4738c56a.snappy.parquet\",\"dataChange\":false,"
          + "\"deletionTimestamp\":1795531194512,\"extendedFileMetadata\":true,"
          + "\"partitionValues\":{\"hour\":\"h00190\"},\"size\":1327}";

  private static final List<StructType> SCHEMAS =
      List.of(
          new StructType().add("add", AddFile.FULL_SCHEMA).add("remove", RemoveFile.FULL_SCHEMA),
          new StructType()
              .add("add", AddFile.SCHEMA_WITH_STATS)
              .add("remove", RemoveFile.FULL_SCHEMA),
          new StructType()
              .add("protocol", Protocol.FULL_SCHEMA)
              .add("metaData", Metadata.FULL_SCHEMA),
          new StructType()
              .add("protocol", Protocol.FULL_SCHEMA)
              .add("metaData", Metadata.FULL_SCHEMA)
              .add("commitInfo", CommitInfo.FULL_SCHEMA),
          new StructType().add("commitInfo", CommitInfo.FULL_SCHEMA));

  private static final List<String> LINES =
      List.of(
          "{\"add\":" + ADD + "}",
          "{\"remove\":" + REMOVE + "}",
          "{\"commitInfo\":{\"timestamp\":1795531194512,\"operation\":\"OPTIMIZE\","
              + "\"operationParameters\":{\"targetSize\":\"104857600\"},\"readVersion\":199,"
              + "\"operationMetrics\":{\"n\":\"1\"},\"isBlindAppend\":false,\"extra\":[1.5,2e300]}}",
          "{\"protocol\":{\"minReaderVersion\":3,\"minWriterVersion\":7,"
              + "\"readerFeatures\":[\"deletionVectors\"],\"writerFeatures\":[\"deletionVectors\"]}}",
          "{\"metaData\":{\"id\":\"x\",\"format\":{\"provider\":\"parquet\",\"options\":{}},"
              + "\"schemaString\":\"{\\\"type\\\":\\\"struct\\\",\\\"fields\\\":[]}\","
              + "\"partitionColumns\":[],\"configuration\":{\"delta.enableDeletionVectors\":\"true\"},"
              + "\"createdTime\":1}}",
          // The same action twice on a line: the last wins, as in the default's tree.
          "{\"add\":" + ADD + ",\"add\":" + ADD.replace("part-0", "part-1") + "}",
          // A field twice inside an action.
          "{\"remove\":{\"path\":\"a\",\"path\":\"b\",\"deletionTimestamp\":1,\"dataChange\":true}}",
          // Actions in another case are other fields: skipped by both.
          "{\"Add\":" + ADD + ",\"REMOVE\":" + REMOVE + "}",
          "{\"add\":null,\"remove\":" + REMOVE + "}",
          "{\"add\":" + ADD + "} trailing words",
          "{}",
          "{\"txn\":{\"appId\":\"a\",\"version\":3},\"cdc\":{\"path\":\"_change_data/x\"}}",
          "{\"remove\":{\"path\":\"caf\\u00e9/\\\"q\\\"\\\\x =.parquet\",\"dataChange\":true}}",
          // What the default refuses, the pruned reader refuses the same way.
          "{\"add\":5}",
          "{\"add\":[1,2]}",
          "{\"add\":{\"path\":7,\"size\":1,\"modificationTime\":1,\"dataChange\":true}}",
          "{\"remove\":{\"path\":\"a\",\"dataChange\":true,\"deletionTimestamp\":1.5}}",
          "{\"remove\":{\"dataChange\":true,\"size\":3,\"extra\":\"quoted in the error\"}}",
          "{\"protocol\":{\"minWriterVersion\":7,\"other\":1}}",
          "{\"commitInfo\":{\"a\":tru},\"add\":" + ADD + "}",
          "{\"commitInfo\":{\"a\":[1,2},\"remove\":" + REMOVE + "}",
          "{\"remove\":" + REMOVE,
          // A float the default's BigDecimal cannot hold fails it even where nothing reads it.
          "{\"commitInfo\":{\"x\":1e9999999999},\"remove\":" + REMOVE + "}",
          "{\"protocol\":{\"minReaderVersion\":1,\"minWriterVersion\":2,\"x\":1e9999999999}}",
          "{\"remove\":{\"path\":\"a\",\"dataChange\":true,\"deletionVector\":{\"storageType\":\"u\","
              + "\"pathOrInlineDv\":\"x\",\"sizeInBytes\":1,\"cardinality\":1,\"f\":[0.5e-3000000000]}}}",
          "{\"txn\":{\"appId\":\"a\",\"version\":1,\"lastUpdated\":1E+2147483648},\"add\":"
              + ADD
              + "}",
          "{\"add\":" + ADD + ",}",
          "",
          "   ",
          "[1]",
          "\"add\"",
          "null",
          "not json");

  @Test
  void everyLineGivesTheDefaultsRowOrTheDefaultsError() {
    for (StructType schema : SCHEMAS) {
      PrunedJsonHandler.Shape shape = PrunedJsonHandler.Shape.of(schema);
      for (String line : LINES) {
        assertSameOutcome(line, schema, shape);
      }
    }
  }

  @Test
  void aStringTooLongForTheDefault_failsAsInTheDefault_evenInAFieldNobodyReads() {
    String huge = "a".repeat(20_000_001);
    StructType schema = SCHEMAS.get(0);
    PrunedJsonHandler.Shape shape = PrunedJsonHandler.Shape.of(schema);
    assertSameOutcome(
        "{\"commitInfo\":{\"x\":\"" + huge + "\"},\"remove\":" + REMOVE + "}", schema, shape);
    assertSameOutcome(
        "{\"remove\":{\"x\":\"" + huge + "\",\"path\":\"a\",\"dataChange\":true}}", schema, shape);
    assertThat(
            catchThrowable(() -> PrunedJsonHandler.defaultRow("{\"x\":\"" + huge + "\"}", schema)))
        .as("the default refuses such a string")
        .isNotNull();
  }

  @Test
  void decimalsAndDoublesKeepEveryDigit() {
    StructType schema =
        new StructType()
            .add(
                "v",
                new StructType()
                    .add("d", new DecimalType(38, 30))
                    .add("f", DoubleType.DOUBLE)
                    .add("s", StringType.STRING));
    PrunedJsonHandler.Shape shape = PrunedJsonHandler.Shape.of(schema);
    String line =
        "{\"skip\":{\"x\":0.1},\"v\":{\"d\":1.234567890123456789012345678901,"
            + "\"f\":0.30000000000000004,\"s\":\"\\ud83d\\ude00\"}}";
    assertSameOutcome(line, schema, shape);
    assertThat(
            PrunedJsonHandler.row(line, schema, shape).getStruct(0).getDecimal(0).toPlainString())
        .isEqualTo("1.234567890123456789012345678901");
  }

  @Test
  void theComparisonSeesARowThatLostAField() {
    // The guard of the test above: a row that lost its deletion timestamp is not the default's.
    StructType schema = SCHEMAS.get(0);
    PrunedJsonHandler.Shape shape = PrunedJsonHandler.Shape.of(schema);
    String line = "{\"remove\":" + REMOVE + "}";
    String lost = "{\"remove\":" + REMOVE.replace("deletionTimestamp", "deletionTimestam") + "}";
    assertThat(JsonUtils.rowToJson(PrunedJsonHandler.row(lost, schema, shape)))
        .isNotEqualTo(JsonUtils.rowToJson(PrunedJsonHandler.defaultRow(line, schema)));
  }

  private static void assertSameOutcome(
      String line, StructType schema, PrunedJsonHandler.Shape shape) {
    Row expected = null;
    Throwable expectedError = null;
    try {
      expected = PrunedJsonHandler.defaultRow(line, schema);
    } catch (RuntimeException e) {
      expectedError = e;
    }
    if (expectedError == null) {
      // Both rows are read to the end (kernel decodes lazily nowhere; serialising reads all).
      String expectedJson = serialised(expected);
      Row actual = PrunedJsonHandler.row(line, schema, shape);
      assertThat(serialised(actual)).as("%s read as %s", line, schema).isEqualTo(expectedJson);
      assertThat(serialised(fromBytes(line, schema, shape)))
          .as("%s read from its bytes as %s", line, schema)
          .isEqualTo(expectedJson);
    } else {
      for (Throwable actual :
          List.of(
              catchThrowable(() -> PrunedJsonHandler.row(line, schema, shape)),
              catchThrowable(() -> fromBytes(line, schema, shape)))) {
        assertThat(actual).as("%s read as %s", line, schema).isNotNull();
        assertThat(actual.getClass()).isEqualTo(expectedError.getClass());
        assertThat(actual.getMessage()).isEqualTo(expectedError.getMessage());
      }
    }
  }

  /** The line's row as read from a file: its UTF-8 bytes, then a line feed. */
  private static Row fromBytes(String line, StructType schema, PrunedJsonHandler.Shape shape) {
    try (LogLines lines =
        new LogLines(
            new java.io.ByteArrayInputStream(
                (line + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8)))) {
      assertThat(lines.next()).isTrue();
      return PrunedJsonHandler.parse(lines, schema, shape).row();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** The row as kernel serialises it; an error the default raises only on access is its text. */
  private static String serialised(Row row) {
    try {
      return JsonUtils.rowToJson(row);
    } catch (RuntimeException e) {
      return e.getClass().getName() + ": " + e.getMessage();
    }
  }
}
