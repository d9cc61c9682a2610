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
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

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
 *
 * <p>Kernel reads the same commit file more than once while it loads a snapshot and commits over
 * it, each time for other actions: its protocol and metadata, then its files, then its domain
 * metadata (every commit over a snapshot asks for them). A file this handler has read to its end
 * without an error is remembered by path, size and modification time, as the top-level names of
 * each of its lines ({@link LineNames}); a later read whose schema names none of a line's names
 * gives that line the row the pruned parse would give it (every field null) without parsing it
 * again, and a file none of whose lines it wants is not opened at all. A line read the default's
 * way (not an object, too long, or one the pruned parse refused) is not remembered and is always
 * read again. A commit of 100,000 removes is parsed twice instead of three times by a vacuum
 * (domain metadata: 0.41 of 0.48 CPU-s of {@code VACUUM START}).
 */
final class PrunedJsonHandler implements JsonHandler {

  /**
   * Lines remembered at most, over all files ({@link LineNames}): a reference and a small shared
   * set per line, some 16 MB at most. Files read after that are not remembered.
   */
  static final long REMEMBERED_LINES = 2_000_000;

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
  private final Map<FileKey, LineNames> read = new ConcurrentHashMap<>();
  private final AtomicLong remembered = new AtomicLong();

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
    // Whether a line none of whose names the schema asks for can take the all-null row: not when
    // the schema has a field that must be present, where such a line fails as the default fails.
    // One row serves every such line: a row is read, never changed.
    Row nullRow = nullRow(schema);
    boolean nullRowFits = nullRow != null;
    return new CloseableIterator<>() {
      private FileStatus file;
      private LogLines reader;

      /** Whether the pending line is to be parsed (it is the reader's current line). */
      private boolean parses;

      private boolean pending;

      /** The current file's line number of the pending line (from 0). */
      private int lineNumber = -1;

      /** What an earlier read found in the current file, or null. */
      private LineNames known;

      /** The current file's lines not opened (every one skipped): how many are left. */
      private int unopened;

      /** The top-level names of the current file's lines as read so far, or null (not recorded). */
      private List<Set<String>> recording;

      @Override
      public boolean hasNext() {
        if (pending) {
          return true;
        }
        try {
          while (true) {
            if (unopened > 0) {
              unopened--;
              lineNumber++;
              parses = false;
              pending = true;
              return true;
            }
            if (reader != null) {
              if (reader.next()) {
                lineNumber++;
                parses = !skips(lineNumber);
                pending = true;
                return true;
              }
              remember();
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
          rows.add(parses ? parsed() : nullRow);
          parses = false;
          pending = false;
        } while (rows.size() < batchRows && hasNext());
        return new DefaultRowBasedColumnarBatch(schema, rows);
      }

      private Row parsed() {
        Parsed parsed;
        try {
          parsed = parse(reader, schema, shape);
        } catch (RuntimeException | Error e) {
          recording = null;
          throw e;
        }
        if (recording != null) {
          recording.add(parsed.names());
        }
        return parsed.row();
      }

      /** Whether line {@code number} of the current file is known to hold nothing asked for. */
      private boolean skips(int number) {
        return known != null && nullRowFits && known.holdsNoneOf(number, shape);
      }

      /** Remembers the current file, read to its end, unless it was known or is not recorded. */
      private void remember() {
        if (recording != null
            && remembered.addAndGet(recording.size()) <= REMEMBERED_LINES
            && read.putIfAbsent(FileKey.of(file), LineNames.of(recording)) != null) {
          remembered.addAndGet(-recording.size());
        }
        recording = null;
      }

      private boolean openNext() throws IOException {
        Utils.closeCloseables(reader);
        reader = null;
        recording = null;
        if (!files.hasNext()) {
          return false;
        }
        file = files.next();
        lineNumber = -1;
        known = read.get(FileKey.of(file));
        if (known != null && nullRowFits && known.holdsNoneOf(shape)) {
          unopened = known.lines();
          return true;
        }
        if (known == null && remembered.get() < REMEMBERED_LINES) {
          recording = new ArrayList<>();
        }
        InputStream stream = null;
        try {
          stream = fileIO.newInputFile(file.getPath(), file.getSize()).newStream();
          reader = new LogLines(stream);
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
   * The row the pruned parse gives an object line with none of {@code schema}'s fields (each of
   * them null), or null when the schema has a field that must be present (such a line is then
   * parsed, and fails the default's way).
   */
  private static Row nullRow(StructType schema) {
    try {
      return new DefaultJsonRow(JsonNodeFactory.instance.objectNode(), schema);
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** A file as kernel lists it: a commit file never changes, so this names its content. */
  private record FileKey(String path, long size, long modificationTime) {
    static FileKey of(FileStatus file) {
      return new FileKey(file.getPath(), file.getSize(), file.getModificationTime());
    }

    // Written out: a record's generated equals and hashCode are linked through method handles on
    // their first call, ~5 ms of a short run's first table load (the demo's profile).
    @Override
    public boolean equals(Object other) {
      return other instanceof FileKey key
          && path.equals(key.path)
          && size == key.size
          && modificationTime == key.modificationTime;
    }

    @Override
    public int hashCode() {
      return (path.hashCode() * 31 + Long.hashCode(size)) * 31 + Long.hashCode(modificationTime);
    }
  }

  /**
   * The top-level names of each line of a file read to its end without an error: null for a line
   * read the default's way, which is always read again. Lines with the same names share one set.
   */
  record LineNames(List<Set<String>> names) {

    static LineNames of(List<Set<String>> lines) {
      Map<Set<String>, Set<String>> shared = new HashMap<>();
      List<Set<String>> names = new ArrayList<>(lines.size());
      for (Set<String> line : lines) {
        names.add(line == null ? null : shared.computeIfAbsent(line, Set::copyOf));
      }
      return new LineNames(Collections.unmodifiableList(names));
    }

    int lines() {
      return names.size();
    }

    /** Whether line {@code number} was parsed and has none of the fields {@code shape} names. */
    boolean holdsNoneOf(int number, Shape shape) {
      if (number >= names.size()) {
        return false;
      }
      Set<String> line = names.get(number);
      return line != null && Collections.disjoint(line, shape.fields().keySet());
    }

    /** Whether every line was parsed and none has a field {@code shape} names. */
    boolean holdsNoneOf(Shape shape) {
      for (int i = 0; i < names.size(); i++) {
        if (!holdsNoneOf(i, shape)) {
          return false;
        }
      }
      return true;
    }
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
    return parse(line, schema, shape).row();
  }

  /**
   * A line's row, and the names of its object's top-level fields when the pruned parse built it
   * (null when the default's way did).
   */
  record Parsed(Row row, Set<String> names) {}

  /**
   * The current line of {@code lines}: parsed from its bytes when it is plain ASCII and starts an
   * object (the same text as its decoded string, so the same tokens, values and errors), otherwise
   * decoded as the default decodes it and parsed as {@link #parse(String, StructType, Shape)} does.
   * A line the byte parse cannot read or build goes the string's way too, so every failure is the
   * default's.
   *
   * <p>One difference, on purpose: Jackson guards each parser's table of field names against hash
   * flooding, and the byte parser's table hashes otherwise than the text parser's. A line of field
   * names made to collide in the text table (1,024 such names in a field nobody reads) fails the
   * default ("suspect a DoS attack"), after more or fewer names depending on what that JVM parsed
   * before; parsed from its bytes it is read as the valid JSON it is. A line that trips the byte
   * parser's own guard is read as text, and fails as the default fails.
   */
  static Parsed parse(LogLines lines, StructType schema, Shape shape) {
    byte[] bytes = lines.bytes();
    int length = lines.length();
    // Only ASCII without NUL: Jackson's byte reader takes a NUL among a line's first bytes for
    // UTF-16 or UTF-32, and the bytes of a byte-order mark for one, where the default's reader
    // reads UTF-8 text. A line that does not open an object goes the default's way anyway.
    if (lines.ascii() && length > 0 && length <= MAX_STRING && bytes[0] == '{') {
      Parsed parsed = pruned(() -> READER.createParser(bytes, 0, length), schema, shape);
      if (parsed != null) {
        return parsed;
      }
    }
    return parse(lines.text(), schema, shape);
  }

  static Parsed parse(String line, StructType schema, Shape shape) {
    if (line.length() > MAX_STRING) {
      // A string this long fails the default's parse wherever it stands; a skipped one is never
      // decoded, so it would not fail here.
      return new Parsed(defaultRow(line, schema), null);
    }
    Parsed parsed = pruned(() -> READER.createParser(line), schema, shape);
    return parsed != null ? parsed : new Parsed(defaultRow(line, schema), null);
  }

  /** Opens a parser over one line. */
  @FunctionalInterface
  private interface LineParser {
    JsonParser open() throws IOException;
  }

  /**
   * The pruned parse of the object a line opens, or null where the default's own parse must answer:
   * the line is not an object or cannot be read, or its row cannot be built (a value of the wrong
   * type or a missing required field: the default's error quotes the whole action, not the pruned
   * one).
   */
  private static Parsed pruned(LineParser line, StructType schema, Shape shape) {
    ObjectNode pruned;
    Set<String> names = new HashSet<>();
    try (JsonParser parser = line.open()) {
      pruned = parser.nextToken() == JsonToken.START_OBJECT ? object(parser, shape, names) : null;
    } catch (IOException | RuntimeException e) {
      return null;
    }
    if (pruned == null) {
      return null;
    }
    try {
      return new Parsed(new DefaultJsonRow(pruned, schema), names);
    } catch (RuntimeException e) {
      return null;
    }
  }

  /**
   * The object the parser is at the start of, with only the fields {@code schema} names: a struct
   * field's object pruned the same way, any other field's value built whole. A name given twice
   * keeps its last value, as the default's tree does. The top-level names go to {@code names} when
   * it is not null.
   */
  private static ObjectNode object(JsonParser parser, Shape shape, Set<String> names)
      throws IOException {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String name = parser.currentName();
      if (names != null) {
        names.add(name);
      }
      JsonToken value = parser.nextToken();
      Shape struct = shape.structs().get(name);
      if (!shape.fields().containsKey(name)) {
        skip(parser);
      } else if (value == JsonToken.START_OBJECT && struct != null) {
        node.set(name, object(parser, struct, null));
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
