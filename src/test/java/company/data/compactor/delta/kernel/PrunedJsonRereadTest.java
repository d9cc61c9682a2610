package company.data.compactor.delta.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.storage.LocalStorage;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.JsonHandler;
import io.delta.kernel.internal.actions.AddFile;
import io.delta.kernel.internal.actions.Metadata;
import io.delta.kernel.internal.actions.Protocol;
import io.delta.kernel.internal.actions.RemoveFile;
import io.delta.kernel.internal.util.Utils;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PrunedJsonHandler} reading a file again: lines an earlier complete read found none of the
 * schema's actions in take the all-null row without a parse (the file is not even opened when no
 * line is wanted), and every row is still the default handler's. A file is read again whole when
 * the earlier read stopped early or failed, when it changed since, and line by line where a line
 * holds what the schema asks for. The file is deleted between reads where the test must show that
 * it was not opened: the rows come back all the same.
 */
class PrunedJsonRereadTest {

  @TempDir Path dir;

  private final LocalStorage storage = new LocalStorage();

  private static final StructType FILES =
      new StructType().add("add", AddFile.FULL_SCHEMA).add("remove", RemoveFile.FULL_SCHEMA);
  private static final StructType PROTOCOL_AND_METADATA =
      new StructType().add("protocol", Protocol.FULL_SCHEMA).add("metaData", Metadata.FULL_SCHEMA);
  private static final StructType DOMAINS =
      new StructType()
          .add(
              "domainMetadata",
              new StructType()
                  .add("domain", StringType.STRING, false)
                  .add("configuration", StringType.STRING, false));

  private static final List<String> REMOVES =
      List.of(
          "{\"commitInfo\":{\"timestamp\":1000,\"operation\":\"OPTIMIZE\"}}",
          remove("a.parquet"),
          remove("b.parquet"),
          "{\"add\":{\"path\":\"c.parquet\",\"partitionValues\":{},\"size\":9,"
              + "\"modificationTime\":1000,\"dataChange\":false}}",
          "{\"futureAction\":{\"domainMetadata\":{\"domain\":\"nested, not top-level\"}}}");

  @Test
  void aFileReadWhole_isNotOpenedAgainForActionsItHasNone_andGivesTheDefaultsRows()
      throws Exception {
    FileStatus commit = write("00000000000000000001.json", REMOVES);
    List<String> expectedMeta = rows(defaults(), commit, PROTOCOL_AND_METADATA);
    List<String> expectedDomains = rows(defaults(), commit, DOMAINS);
    PrunedJsonHandler pruned = pruned();

    assertThat(rows(pruned, commit, FILES)).isEqualTo(rows(defaults(), commit, FILES));
    Files.delete(Path.of(commit.getPath().substring("file:".length())));

    assertThat(rows(pruned, commit, PROTOCOL_AND_METADATA))
        .isEqualTo(expectedMeta)
        .hasSize(REMOVES.size())
        .allMatch(row -> row.equals("{}"));
    assertThat(rows(pruned, commit, DOMAINS)).isEqualTo(expectedDomains).hasSize(REMOVES.size());
    assertThat(rows(pruned, commit, FILES))
        .as("a schema some lines hold is read from the file, which is gone")
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .startsWith("failed: ");
  }

  @Test
  void linesHoldingWhatTheSchemaAsksFor_areParsed_theOthersNot() throws Exception {
    List<String> lines = new ArrayList<>(REMOVES);
    lines.add(
        "{\"protocol\":{\"minReaderVersion\":1,\"minWriterVersion\":2}}"); // the one wanted line
    FileStatus commit = write("00000000000000000002.json", lines);
    PrunedJsonHandler pruned = pruned();
    assertThat(rows(pruned, commit, FILES)).isEqualTo(rows(defaults(), commit, FILES));

    List<String> again = rows(pruned, commit, PROTOCOL_AND_METADATA);

    assertThat(again).isEqualTo(rows(defaults(), commit, PROTOCOL_AND_METADATA));
    assertThat(again.get(lines.size() - 1)).contains("\"minWriterVersion\":2");
  }

  @Test
  void aReadStoppedEarly_isNotRemembered() throws Exception {
    FileStatus commit = write("00000000000000000003.json", REMOVES);
    PrunedJsonHandler pruned = pruned(1);
    try (CloseableIterator<ColumnarBatch> batches =
        pruned.readJsonFiles(files(commit), FILES, Optional.empty())) {
      assertThat(batches.next().getSize()).isEqualTo(1);
    }
    Files.delete(Path.of(commit.getPath().substring("file:".length())));

    assertThat(rows(pruned, commit, PROTOCOL_AND_METADATA))
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .startsWith("failed: ");
  }

  @Test
  void aFileThatFailedToParse_failsAgainForEverySchema_asTheDefaultFails() throws Exception {
    List<String> lines = new ArrayList<>(REMOVES);
    lines.add("{\"remove\":{\"path\":\"d.parquet\",\"deletionTimestamp\":1000,"); // cut short
    FileStatus commit = write("00000000000000000004.json", lines);
    PrunedJsonHandler pruned = pruned();

    assertThat(rows(pruned, commit, FILES)).last().asString().startsWith("failed: ");
    List<String> again = rows(pruned, commit, PROTOCOL_AND_METADATA);

    assertThat(again).isEqualTo(rows(defaults(), commit, PROTOCOL_AND_METADATA));
    assertThat(again).last().asString().startsWith("failed: ");
  }

  @Test
  void aFileWrittenAgainUnderTheSamePath_isReadAgain() throws Exception {
    FileStatus first = write("00000000000000000005.json", REMOVES);
    PrunedJsonHandler pruned = pruned();
    rows(pruned, first, FILES);
    List<String> changed = new ArrayList<>(REMOVES);
    changed.add(0, "{\"protocol\":{\"minReaderVersion\":1,\"minWriterVersion\":2}}");
    FileStatus second = write("00000000000000000005.json", changed);
    assertThat(second.getSize()).isNotEqualTo(first.getSize());

    List<String> again = rows(pruned, second, PROTOCOL_AND_METADATA);

    assertThat(again).isEqualTo(rows(defaults(), second, PROTOCOL_AND_METADATA));
    assertThat(again.get(0)).contains("\"minReaderVersion\":1");
  }

  @Test
  void aSchemaWithARequiredField_readsEveryLine_andFailsAsTheDefaultFails() throws Exception {
    FileStatus commit = write("00000000000000000006.json", REMOVES);
    StructType required = new StructType().add("protocol", Protocol.FULL_SCHEMA, false);
    PrunedJsonHandler pruned = pruned();
    rows(pruned, commit, FILES);

    List<String> again = rows(pruned, commit, required);

    assertThat(again).isEqualTo(rows(defaults(), commit, required));
    assertThat(again).last().asString().startsWith("failed: ");
  }

  private static String remove(String path) {
    return "{\"remove\":{\"path\":\""
        + path
        + "\",\"deletionTimestamp\":1000,\"dataChange\":false,\"size\":8,"
        + "\"partitionValues\":{}}}";
  }

  private FileStatus write(String name, List<String> lines) throws IOException {
    Path file = dir.resolve(name);
    Files.write(file, String.join("\n", lines).concat("\n").getBytes(StandardCharsets.UTF_8));
    return FileStatus.of(
        "file:" + file, Files.size(file), Files.getLastModifiedTime(file).toMillis());
  }

  private PrunedJsonHandler pruned() {
    return pruned(PrunedJsonHandler.BATCH_ROWS);
  }

  private PrunedJsonHandler pruned(int batchRows) {
    StorageFileIO io =
        new StorageFileIO(
            storage, Map.of(PrunedJsonHandler.BATCH_ROWS_KEY, String.valueOf(batchRows)));
    return new PrunedJsonHandler(io, defaults());
  }

  private JsonHandler defaults() {
    return DefaultEngine.create(new StorageFileIO(storage, Map.of())).getJsonHandler();
  }

  private static CloseableIterator<FileStatus> files(FileStatus file) {
    return Utils.toCloseableIterator(List.of(file).iterator());
  }

  /** Every row as JSON, then "failed: ..." where the read failed ({@link PrunedJsonBytesTest}). */
  private static List<String> rows(JsonHandler handler, FileStatus file, StructType schema) {
    return PrunedJsonBytesTest.outcome(handler, file, schema);
  }
}
