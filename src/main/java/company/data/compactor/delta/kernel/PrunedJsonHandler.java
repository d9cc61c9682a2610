package company.data.compactor.delta.kernel;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.defaults.engine.fileio.FileIO;
import io.delta.kernel.defaults.internal.data.DefaultJsonRow;
import io.delta.kernel.defaults.internal.data.DefaultRowBasedColumnarBatch;
import io.delta.kernel.engine.JsonHandler;
import io.delta.kernel.exceptions.KernelEngineException;
import io.delta.kernel.expressions.Predicate;
import io.delta.kernel.internal.util.Utils;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;

/**
 * Kernel's default {@link JsonHandler} with one change: a log line read from a file becomes a tree
 * of the fields the read schema asks for only. Kernel's default reader builds the whole line as a
 * Jackson tree and then picks fields out of it: to find the protocol and metadata behind a commit
 * of 100,000 removes it built 100,000 remove trees and used none, and each remove's partition
 * values, size and stats were built again for the file listing, which reads only its path and
 * deletion vector. Here every field the schema does not name is skipped by the streaming parser
 * (still tokenised, so a malformed line fails as before) and every field it names is built as the
 * default would build it (the same reader settings: floats as BigDecimal), so the row kernel gets
 * is the default's row.
 *
 * <p>Anything but a JSON object on a line, or a line the pruning parse cannot read, is parsed by
 * the default's own steps, so it fails (or is read) exactly as with the default handler. {@code
 * parseJson} and {@code writeJsonFileAtomically} are the default's.
 */
final class PrunedJsonHandler implements JsonHandler {

  /** Rows per batch unless {@value #BATCH_ROWS_KEY} says otherwise: the default's default. */
  static final int BATCH_ROWS = 1024;

  /** The default handler's setting of its batch size, honoured here the same way. */
  static final String BATCH_ROWS_KEY = "delta.kernel.default.json.reader.batch-size";

  /** The default reader's longest string: a line longer than this goes to the default's parse. */
  private static final int MAX_STRING = StreamReadConstraints.defaults().getMaxStringLength();

  /** The default handler's reader: floats as BigDecimal, so no decimal loses digits. */
  private static final ObjectReader READER =
      new ObjectMapper().reader(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

  private final FileIO fileIO;
  private final JsonHandler delegate;
  private final int batchRows;

  /** Reads through {@code fileIO}; {@code delegate} is the default handler over the same I/O. */
  PrunedJsonHandler(FileIO fileIO, JsonHandler delegate) {
    this.fileIO = fileIO;
    this.delegate = delegate;
    this.batchRows = fileIO.getConf(BATCH_ROWS_KEY).map(Integer::valueOf).orElse(BATCH_ROWS);
    if (batchRows <= 0) {
      throw new IllegalArgumentException("invalid JSON reader batch size: " + batchRows);
    }
  }

  @Override
  public ColumnarBatch parseJson(
      ColumnVector jsonStringVector,
      StructType outputSchema,
      Optional<ColumnVector> selectionVector) {
    return delegate.parseJson(jsonStringVector, outputSchema, selectionVector);
  }

  @Override
  public void writeJsonFileAtomically(
      String filePath, CloseableIterator<Row> data, boolean overwrite) throws IOException {
    delegate.writeJsonFileAtomically(filePath, data, overwrite);
  }

  /**
   * The rows of every line of {@code files}, in order, a batch of up to {@value #BATCH_ROWS} rows
   * (or {@value #BATCH_ROWS_KEY}) at a time (a batch may span files, as with the default). The
   * caller closes the iterator.
   */
  @Override
  public CloseableIterator<ColumnarBatch> readJsonFiles(
      CloseableIterator<FileStatus> files, StructType schema, Optional<Predicate> predicate) {
    Shape shape = Shape.of(schema);
    return new CloseableIterator<>() {
      private FileStatus file;
      private BufferedReader reader;
      private String line;

      @Override
      public boolean hasNext() {
        if (line != null) {
          return true;
        }
        try {
          while (true) {
            if (reader != null && (line = reader.readLine()) != null) {
              return true;
            }
            if (!openNext()) {
              return false;
            }
          }
        } catch (IOException e) {
          throw new KernelEngineException(
              String.format("Error reading JSON file: %s", file.getPath()), e);
        }
      }

      @Override
      public ColumnarBatch next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        List<Row> rows = new ArrayList<>();
        do {
          rows.add(row(line, schema, shape));
          line = null;
        } while (rows.size() < batchRows && hasNext());
        return new DefaultRowBasedColumnarBatch(schema, rows);
      }

      private boolean openNext() throws IOException {
        Utils.closeCloseables(reader);
        reader = null;
        if (!files.hasNext()) {
          return false;
        }
        file = files.next();
        InputStream stream = null;
        try {
          stream = fileIO.newInputFile(file.getPath(), file.getSize()).newStream();
          reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException e) {
          Utils.closeCloseablesSilently(stream);
          throw e;
        }
        return true;
      }

      @Override
      public void close() throws IOException {
        Utils.closeCloseables(reader, files);
      }
    };
  }

  /**
   * The fields of a schema by name, each with the shape of its own fields when it is a struct:
   * built once per read, not once per line.
   */
  record Shape(Map<String, StructField> fields, Map<String, Shape> structs) {
    static Shape of(StructType schema) {
      Map<String, StructField> fields = new HashMap<>();
      Map<String, Shape> structs = new HashMap<>();
      for (StructField field : schema.fields()) {
        fields.put(field.getName(), field);
        if (field.getDataType() instanceof StructType struct) {
          structs.put(field.getName(), of(struct));
        }
      }
      return new Shape(fields, structs);
    }
  }

  /** One line as the default's row: pruned when it is an object, the default's way otherwise. */
  static Row row(String line, StructType schema, Shape shape) {
    if (line.length() > MAX_STRING) {
      // A string this long fails the default's parse wherever it stands; a skipped one is never
      // decoded, so it would not fail here.
      return defaultRow(line, schema);
    }
    ObjectNode pruned;
    try (JsonParser parser = READER.createParser(line)) {
      pruned = parser.nextToken() == JsonToken.START_OBJECT ? object(parser, shape) : null;
    } catch (IOException | RuntimeException e) {
      pruned = null;
    }
    if (pruned == null) {
      return defaultRow(line, schema);
    }
    try {
      return new DefaultJsonRow(pruned, schema);
    } catch (RuntimeException e) {
      // A value of the wrong type or a missing required field: the default's error, whose text
      // quotes the whole action, not the pruned one.
      return defaultRow(line, schema);
    }
  }

  /**
   * The object the parser is at the start of, with only the fields {@code schema} names: a struct
   * field's object pruned the same way, any other field's value built whole. A name given twice
   * keeps its last value, as the default's tree does.
   */
  private static ObjectNode object(JsonParser parser, Shape shape) throws IOException {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String name = parser.currentName();
      JsonToken value = parser.nextToken();
      Shape struct = shape.structs().get(name);
      if (!shape.fields().containsKey(name)) {
        skip(parser);
      } else if (value == JsonToken.START_OBJECT && struct != null) {
        node.set(name, object(parser, struct));
      } else {
        JsonNode built = READER.readTree(parser);
        node.set(name, built);
      }
    }
    if (parser.currentToken() != JsonToken.END_OBJECT) {
      throw new IllegalStateException("an object that does not end: " + parser.currentToken());
    }
    return node;
  }

  /**
   * Skips the value the parser is at, decoding each float in it as the default's tree would (as a
   * BigDecimal: {@code 1e9999999999} fails there, and so must fail here). Strings are not decoded;
   * {@link #row} sends a line that could hold one too long for the default to the default.
   */
  private static void skip(JsonParser parser) throws IOException {
    int depth = 0;
    JsonToken token = parser.currentToken();
    while (true) {
      if (token == null) {
        throw new IOException("the line ends inside a value");
      }
      switch (token) {
        case START_OBJECT, START_ARRAY -> depth++;
        case END_OBJECT, END_ARRAY -> depth--;
        case VALUE_NUMBER_FLOAT -> parser.getDecimalValue();
        default -> {}
      }
      if (depth == 0) {
        return;
      }
      token = parser.nextToken();
    }
  }

  /** The default handler's own parse of a line: its row, or its error. */
  static Row defaultRow(String line, StructType schema) {
    try {
      JsonNode tree = READER.readTree(line);
      return new DefaultJsonRow((ObjectNode) tree, schema);
    } catch (JsonProcessingException e) {
      throw new KernelEngineException(String.format("Could not parse JSON: %s", line), e);
    }
  }
}
