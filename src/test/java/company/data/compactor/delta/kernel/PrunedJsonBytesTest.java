package company.data.compactor.delta.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.storage.LocalStorage;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.defaults.internal.json.JsonUtils;
import io.delta.kernel.engine.JsonHandler;
import io.delta.kernel.internal.actions.AddFile;
import io.delta.kernel.internal.actions.Metadata;
import io.delta.kernel.internal.actions.Protocol;
import io.delta.kernel.internal.actions.RemoveFile;
import io.delta.kernel.internal.util.Utils;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import java.io.ByteArrayOutputStream;
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
 * {@link PrunedJsonHandler} reading commit files byte by byte as kernel's default handler reads
 * them as text: lines of plain ASCII are parsed from their bytes, every other line from the text
 * the default decodes. Files are written as raw bytes, with what a byte-level parser could read
 * differently from the default: every line terminator, raw UTF-8 in paths, malformed UTF-8 in a
 * skipped field and in a read one, a byte-order mark, NUL, a line longer than the reader's buffer.
 * Each read gives the default's rows, or fails with the default's exception and message.
 */
class PrunedJsonBytesTest {

  @TempDir Path dir;

  private final LocalStorage storage = new LocalStorage();

  private static final List<StructType> SCHEMAS =
      List.of(
          new StructType().add("add", AddFile.FULL_SCHEMA).add("remove", RemoveFile.FULL_SCHEMA),
          new StructType()
              .add("protocol", Protocol.FULL_SCHEMA)
              .add("metaData", Metadata.FULL_SCHEMA));

  private static final String COMMIT_INFO = "{\"commitInfo\":{\"timestamp\":1000,\"x\":\"";

  @Test
  void everyTerminator_readsAsTheDefault() throws IOException {
    assertSameReads(ascii(remove("a") + "\r\n" + remove("b") + "\r" + remove("c") + "\n"));
    assertSameReads(ascii(remove("a") + "\n" + remove("b")));
    assertSameReads(ascii(remove("a") + "\n\n" + remove("b") + "\n"));
    assertSameReads(ascii(remove("a") + "\r\r\n" + remove("b")));
  }

  @Test
  void rawUtf8_andMalformedBytes_readAsTheDefault() throws IOException {
    assertSameReads(bytes(remove("caf\u00e9 \ud83d\ude00/x").getBytes(StandardCharsets.UTF_8)));
    // Malformed in a field no schema reads: the default decodes U+FFFD and reads the line.
    assertSameReads(
        bytes(
            ascii(COMMIT_INFO),
            new byte[] {(byte) 0xFF, (byte) 0xC3},
            ascii("\"}}\n" + remove("a") + "\n")));
    // Malformed in a path the file listing reads.
    assertSameReads(
        bytes(
            ascii("{\"remove\":{\"path\":\"a"),
            new byte[] {(byte) 0xE2, (byte) 0x82},
            ascii("\",\"deletionTimestamp\":1,\"dataChange\":true}}\n")));
    // A cut sequence as the last bytes of a line, and of the file.
    assertSameReads(bytes(ascii(remove("a")), new byte[] {(byte) 0xF0, (byte) 0x9F, '\n'}));
    assertSameReads(bytes(ascii(remove("a") + "\n"), new byte[] {(byte) 0xF0, (byte) 0x9F}));
  }

  @Test
  void aByteOrderMark_nul_andOtherEncodings_readAsTheDefault() throws IOException {
    assertSameReads(bytes(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, ascii(remove("a"))));
    assertSameReads(bytes(ascii("{\"remove\":{\"path\":\"a\0\",\"dataChange\":true}}\n")));
    assertSameReads(bytes(ascii("{\0\"\0a\0\"\0:\0{\0}\0}\0\n")));
    assertSameReads(
        bytes(ascii(remove("a") + "\n"), "{}".getBytes(StandardCharsets.UTF_16BE), ascii("\n")));
  }

  @Test
  void aLineLongerThanTheReadersBuffer_readsAsTheDefault() throws IOException {
    String padding = "y".repeat(70_000);
    assertSameReads(ascii(COMMIT_INFO + padding + "\"}}\r\n" + remove("a") + "\n"));
    assertSameReads(ascii(remove("p".repeat(65_000)) + "\r\n" + remove("b") + "\n"));
  }

  @Test
  void fieldNamesMadeToCollideInTheTextParsersTable_areReadFromTheBytes() throws IOException {
    // 'B'*33+'!' == 'A'*33+'B': 1,024 names of ten such pairs share one hash in the text parser's
    // table, whose flooding guard then refuses the line; the byte parser hashes them apart.
    List<String> names = new ArrayList<>(List.of(""));
    for (int pair = 0; pair < 10; pair++) {
      List<String> longer = new ArrayList<>();
      for (String name : names) {
        longer.add(name + "B!");
        longer.add(name + "AB");
      }
      names = longer;
    }
    StringBuilder values = new StringBuilder();
    for (String name : names) {
      values.append(values.length() == 0 ? "" : ",").append('"').append(name).append("\":\"v\"");
    }
    String add =
        "{\"add\":{\"path\":\"x.parquet\",\"partitionValues\":{"
            + values
            + "},\"size\":8,\"modificationTime\":1,\"dataChange\":true}}";
    FileStatus file = write(ascii("{\"commitInfo\":{\"x\":{" + values + "}}}\n" + add + "\n"));

    List<String> rows = outcome(pruned(), file, SCHEMAS.get(0));

    assertThat(rows).hasSize(2).first().isEqualTo("{}");
    assertThat(rows.get(1))
        .contains("\"path\":\"x.parquet\"")
        .contains("\"ABABABABABABABABABAB\":\"v\"")
        .contains("\"B!B!B!B!B!B!B!B!B!B!\":\"v\"");
  }

  @Test
  @org.junit.jupiter.api.Timeout(30)
  void aStreamThatReadsNothing_failsAsTheDefaultsReaderFails() {
    java.io.InputStream nothing =
        new java.io.InputStream() {
          @Override
          public int read() {
            return 'x';
          }

          @Override
          public int read(byte[] b, int off, int len) {
            return 0;
          }
        };
    assertThat(
            org.assertj.core.api.Assertions.catchThrowable(
                () -> {
                  try (LogLines lines = new LogLines(nothing)) {
                    lines.next();
                  }
                }))
        .isInstanceOf(IOException.class)
        .hasMessage("Underlying input stream returned zero bytes");
  }

  @Test
  void theComparisonSeesADifferentRow() throws IOException {
    // The guard of the tests above: two files that differ in one byte do not read the same.
    FileStatus one = write(ascii(remove("a") + "\n"));
    FileStatus other = write(ascii(remove("b") + "\n"));
    assertThat(outcome(pruned(), one, SCHEMAS.get(0)))
        .isNotEqualTo(outcome(defaults(), other, SCHEMAS.get(0)));
  }

  private void assertSameReads(byte[] content) throws IOException {
    FileStatus file = write(content);
    for (StructType schema : SCHEMAS) {
      List<String> expected = outcome(defaults(), file, schema);
      assertThat(outcome(pruned(), file, schema)).as("%s", schema).isEqualTo(expected);
    }
  }

  private static String remove(String path) {
    return "{\"remove\":{\"path\":\""
        + path
        + "\",\"deletionTimestamp\":1000,\"dataChange\":false,\"size\":8}}";
  }

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] bytes(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }

  private int files;

  private FileStatus write(byte[] content) throws IOException {
    Path file = dir.resolve("%020d.json".formatted(files++));
    Files.write(file, content);
    return FileStatus.of(
        "file:" + file, Files.size(file), Files.getLastModifiedTime(file).toMillis());
  }

  private PrunedJsonHandler pruned() {
    return new PrunedJsonHandler(new StorageFileIO(storage, Map.of()), defaults());
  }

  private JsonHandler defaults() {
    return DefaultEngine.create(new StorageFileIO(storage, Map.of())).getJsonHandler();
  }

  /** Every row as JSON, then the failure's class and message where the read failed. */
  static List<String> outcome(JsonHandler handler, FileStatus file, StructType schema) {
    List<String> rows = new ArrayList<>();
    try (CloseableIterator<ColumnarBatch> batches =
        handler.readJsonFiles(
            Utils.toCloseableIterator(List.of(file).iterator()), schema, Optional.empty())) {
      while (batches.hasNext()) {
        try (CloseableIterator<Row> each = batches.next().getRows()) {
          while (each.hasNext()) {
            Row row = each.next();
            rows.add(row == null ? "null" : JsonUtils.rowToJson(row));
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      rows.add("failed: " + e.getClass().getName() + ": " + e.getMessage());
    }
    return rows;
  }
}
