package company.data.compactor.compact.exec;

import company.data.compactor.duckdb.Sql;
import company.data.compactor.model.Column;
import company.data.compactor.model.ColumnMappingMode;
import company.data.compactor.model.PartitionValues;
import company.data.compactor.model.TableSchema;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Verifies a rewrite by what readers see, through queries of its own built from the Delta schema,
 * never from the writer's select list, on a DuckDB database of its own.
 *
 * <p>A file's columns are resolved to the schema as Delta readers on Spark do: by name,
 * case-insensitively; a file in which two columns match one schema column is {@link Refused}, and
 * so is a file storing a column in a form that cannot be read as its Delta type without loss or
 * ambiguity (strings as unannotated binary, decimals of another scale or a larger precision,
 * nanosecond timestamps), because a cast on both sides would hide the loss; a schema column a file
 * lacks reads as NULL. Each side of a rewrite is measured into a {@link Fingerprint}: rows, the
 * non-null count of every data column, and the sum of row hashes over every data column (cast to
 * its Delta type) and every partition value, the latter taken from the add action of each file
 * (inputs) or of the new file (outputs). Equal fingerprints mean the same rows in the same
 * partitions; a column that had values can never come out NULL. Close it.
 */
final class RewriteVerifier implements AutoCloseable {

  /**
   * A local Parquet file, the partition values its add action carries and how many of its rows its
   * deletion vector deletes.
   *
   * @param file the local copy (or the file itself on local storage)
   * @param partition the partition values of its add action
   * @param deletedRows how many rows its deletion vector deletes (0 without one); the rows
   *     themselves come from {@link DeletedRows}
   */
  record Measured(Path file, PartitionValues partition, long deletedRows) {

    /** A file no deletion vector deletes rows of (an output, or an input without one). */
    Measured(Path file, PartitionValues partition) {
      this(file, partition, 0);
    }
  }

  /**
   * What readers see in a set of files.
   *
   * @param rows rows
   * @param nonNull per data column (schema order), rows where it is not NULL
   * @param hashSum the sum of row hashes over every data column and partition value
   */
  record Fingerprint(long rows, Map<String, Long> nonNull, BigInteger hashSum) {

    Fingerprint {
      nonNull = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(nonNull));
    }

    static Fingerprint empty(List<Column> columns) {
      Map<String, Long> zero = new LinkedHashMap<>();
      columns.forEach(c -> zero.put(c.name(), 0L));
      return new Fingerprint(0, zero, BigInteger.ZERO);
    }

    Fingerprint plus(Fingerprint other) {
      Map<String, Long> sum = new LinkedHashMap<>(nonNull);
      other.nonNull.forEach((k, v) -> sum.merge(k, v, Long::sum));
      return new Fingerprint(rows + other.rows, sum, hashSum.add(other.hashSum));
    }

    /** The fingerprint of these rows without {@code part}'s, which must be among them. */
    Fingerprint minus(Fingerprint part) {
      Map<String, Long> rest = new LinkedHashMap<>(nonNull);
      part.nonNull.forEach((k, v) -> rest.merge(k, -v, Long::sum));
      return new Fingerprint(rows - part.rows, rest, hashSum.subtract(part.hashSum));
    }

    /** What differs from {@code after}, one phrase each; empty when readers see the same. */
    List<String> differences(Fingerprint after) {
      List<String> found = new ArrayList<>();
      if (rows != after.rows) {
        found.add("rows " + rows + " -> " + after.rows);
      }
      nonNull.forEach(
          (column, count) -> {
            long then = after.nonNull.getOrDefault(column, 0L);
            if (count != then) {
              found.add("non-null " + column + " " + count + " -> " + then);
            }
          });
      if (!hashSum.equals(after.hashSum)) {
        found.add("checksum " + hashSum + " -> " + after.hashSum);
      }
      return found;
    }
  }

  /** An input that cannot be read unambiguously; nothing may be rewritten from it. */
  static final class Refused extends Exception {
    Refused(String message) {
      super(message);
    }
  }

  private final Connection connection;
  private final TableSchema schema;
  private final List<Column> dataColumns;
  private final ColumnMappingMode mode;

  /** Opens its own DuckDB database, bounded like the rewriter's, spilling under {@code scratch}. */
  RewriteVerifier(TableSchema schema, RewriteSettings settings, Path scratch)
      throws SQLException, IOException {
    this(schema, ColumnMappingMode.NONE, settings, scratch);
  }

  /**
   * A verifier of a table whose files name columns as {@code mode} says: under column mapping a
   * file's fields are matched to the schema by physical name ({@code name}) or field id ({@code
   * id}), at every level of nested structs, never by the schema's names.
   */
  RewriteVerifier(
      TableSchema schema, ColumnMappingMode mode, RewriteSettings settings, Path scratch)
      throws SQLException, IOException {
    this.schema = schema;
    this.mode = mode;
    this.dataColumns =
        schema.columns().stream().filter(c -> !schema.isPartitionColumn(c.name())).toList();
    connection = BoundedDuckDb.open(settings, scratch, "verify");
  }

  /**
   * Measures {@code files}: one query per group of files that spell the columns alike and share
   * partition values.
   *
   * @throws Refused when a file has two columns matching one schema column
   */
  Fingerprint measure(List<Measured> files) throws SQLException, Refused {
    return measure(files, DeletedRows.NONE);
  }

  /**
   * Measures the rows readers see in {@code files}: every row of each file less the rows its
   * deletion vector deletes. Computed its own way, not through the writer's filter: the fingerprint
   * of all rows, minus the fingerprint of the rows {@code deleted} names (found by a semi-join on
   * the file and {@code file_row_number}); every named row must be found, else the vector and the
   * file disagree and the bin is refused.
   *
   * @throws Refused when a file has two columns matching one schema column, or a deletion vector
   *     names rows its file does not have
   */
  Fingerprint measure(List<Measured> files, DeletedRows deleted) throws SQLException, Refused {
    Map<Path, List<String>> spellings = spellings(files.stream().map(Measured::file).toList());
    Map<List<Object>, List<Measured>> groups = new LinkedHashMap<>();
    for (Measured file : files) {
      if (file.deletedRows() != deleted.count(file.file())) {
        throw new Refused(
            "the deletion vector of "
                + file.file().getFileName()
                + " deletes "
                + file.deletedRows()
                + " rows but "
                + deleted.count(file.file())
                + " were loaded");
      }
      List<Object> key = List.of(spellings.get(file.file()), file.partition());
      groups.computeIfAbsent(key, k -> new ArrayList<>()).add(file);
    }
    if (!deleted.isEmpty()) {
      deleted.writeTable(connection, DELETED_TABLE);
    }
    Fingerprint total = Fingerprint.empty(dataColumns);
    for (Map.Entry<List<Object>, List<Measured>> group : groups.entrySet()) {
      @SuppressWarnings("unchecked")
      List<String> spelling = (List<String>) group.getKey().get(0);
      PartitionValues partition = (PartitionValues) group.getKey().get(1);
      List<Path> paths = group.getValue().stream().map(Measured::file).toList();
      String all =
          "read_parquet("
              + Sql.pathList(paths)
              + ", hive_partitioning = false, union_by_name = true)";
      Fingerprint measured = measureGroup(all, spelling, partition);
      long expected = group.getValue().stream().mapToLong(Measured::deletedRows).sum();
      if (expected > 0) {
        Fingerprint gone = measureGroup(deletedOf(paths), spelling, partition);
        if (gone.rows() != expected) {
          throw new Refused(
              "deletion vectors of "
                  + paths.stream().map(p -> p.getFileName().toString()).toList()
                  + " delete "
                  + expected
                  + " rows, but only "
                  + gone.rows()
                  + " of them are in the files; the vectors and the files disagree");
        }
        measured = measured.minus(gone);
      }
      total = total.plus(measured);
    }
    return total;
  }

  /** The verifier's own table of deleted rows. */
  static final String DELETED_TABLE = "__verify_deleted_rows";

  /** The rows of {@code files} that {@link #DELETED_TABLE} names, with the files' own columns. */
  private static String deletedOf(List<Path> files) {
    return "(SELECT r.* EXCLUDE (__verify_file, file_row_number) FROM read_parquet("
        + Sql.pathList(files)
        + ", hive_partitioning = false, union_by_name = true, filename = '__verify_file',"
        + " file_row_number = true) r SEMI JOIN "
        + Sql.identifier(DELETED_TABLE)
        + " d ON r.__verify_file = d.filename AND r.file_row_number = d.row)";
  }

  private Fingerprint measureGroup(String source, List<String> spelling, PartitionValues partition)
      throws SQLException {
    List<String> values = new ArrayList<>();
    for (int i = 0; i < dataColumns.size(); i++) {
      String type = Projection.duckDbType(dataColumns.get(i).type());
      String actual = spelling.get(i);
      // Under column mapping the spelling is already the expression reading the column.
      String value = actual == null ? "NULL" : mode.isMapped() ? actual : Sql.identifier(actual);
      values.add(
          (type == null ? value : "CAST(" + value + " AS " + type + ")") + " AS " + column(i));
    }
    int p = 0;
    for (String name : schema.partitionColumns()) {
      String raw = partition.values().get(name);
      values.add(
          "CAST("
              + (raw == null ? "NULL" : Sql.literal(raw))
              + " AS VARCHAR) AS __partition_"
              + p++);
    }
    List<String> hashed = new ArrayList<>();
    List<String> items = new ArrayList<>();
    items.add("count(*)");
    for (int i = 0; i < dataColumns.size(); i++) {
      items.add("count(" + column(i) + ")");
      hashed.add(column(i));
    }
    for (int i = 0; i < p; i++) {
      hashed.add("__partition_" + i);
    }
    items.add("CAST(coalesce(sum(hash(" + String.join(", ", hashed) + ")), 0) AS VARCHAR)");
    String sql =
        "SELECT "
            + String.join(", ", items)
            + " FROM (SELECT "
            + String.join(", ", values)
            + " FROM "
            + source
            + ")";
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      Map<String, Long> nonNull = new LinkedHashMap<>();
      for (int i = 0; i < dataColumns.size(); i++) {
        nonNull.put(dataColumns.get(i).name(), rs.getLong(2 + i));
      }
      return new Fingerprint(
          rs.getLong(1), nonNull, new BigInteger(rs.getString(dataColumns.size() + 2)));
    }
  }

  private static String column(int index) {
    return "__column_" + index;
  }

  /**
   * Per file, the name it spells each data column with (null when it lacks one), from the Parquet
   * footers' top-level fields: the names as written, before any reader renames duplicates.
   */
  private Map<Path, List<String>> spellings(List<Path> files) throws SQLException, Refused {
    Map<String, List<String[]>> schemas = new LinkedHashMap<>();
    String sql =
        "SELECT file_name, name, coalesce(num_children, 0), coalesce(duckdb_type, '') FROM parquet_schema("
            + Sql.pathList(files)
            + ") ORDER BY file_name, column_id";
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        schemas
            .computeIfAbsent(rs.getString(1), k -> new ArrayList<>())
            .add(new String[] {rs.getString(2), Long.toString(rs.getLong(3)), rs.getString(4)});
      }
    }
    Map<String, Map<String, String>> sparkKeys = sparkMetadata(files);
    Map<Path, List<FooterField>> mapped =
        mode.isMapped() ? FooterField.read(connection, files) : Map.of();
    Map<Path, List<String>> spellings = new LinkedHashMap<>();
    for (Path file : files) {
      List<String[]> elements = schemas.get(file.toString());
      if (elements == null) {
        throw new Refused("file " + file.getFileName() + " has no readable Parquet schema");
      }
      List<String> spelling =
          mode.isMapped() ? mappedNames(file, mapped.get(file)) : resolve(file, topLevel(elements));
      List<String> values = mode.isMapped() ? mappedValues(mapped.get(file)) : spelling;
      String calendar = legacyCalendar(sparkKeys.getOrDefault(file.toString(), Map.of()));
      if (calendar != null) {
        refuseAncientDatetimes(file, elements, spelling, calendar);
      }
      spellings.put(file, values);
    }
    return spellings;
  }

  /** Spark's footer keys ({@code org.apache.spark.*}) per file name. */
  private Map<String, Map<String, String>> sparkMetadata(List<Path> files) throws SQLException {
    Map<String, Map<String, String>> keys = new LinkedHashMap<>();
    String sql =
        "SELECT file_name, CAST(key AS VARCHAR), CAST(value AS VARCHAR) FROM parquet_kv_metadata("
            + Sql.pathList(files)
            + ") WHERE starts_with(CAST(key AS VARCHAR), 'org.apache.spark.')";
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        keys.computeIfAbsent(rs.getString(1), k -> new LinkedHashMap<>())
            .put(rs.getString(2), rs.getString(3));
      }
    }
    return keys;
  }

  /**
   * Why a file's dates and timestamps are in Spark's legacy hybrid Julian+Gregorian calendar, from
   * its footer keys; null when they are proleptic Gregorian (as DuckDB reads and writes them).
   * Spark 3 writes {@code org.apache.spark.legacyDateTime} / {@code legacyINT96} in LEGACY rebase
   * mode, and Spark before 3.0 always wrote the hybrid calendar.
   */
  static String legacyCalendar(Map<String, String> sparkKeys) {
    if (sparkKeys.containsKey("org.apache.spark.legacyDateTime")) {
      return "Spark wrote it in LEGACY rebase mode (org.apache.spark.legacyDateTime)";
    }
    if (sparkKeys.containsKey("org.apache.spark.legacyINT96")) {
      return "Spark wrote it in LEGACY rebase mode (org.apache.spark.legacyINT96)";
    }
    String version = sparkKeys.get("org.apache.spark.version");
    if (version != null && !version.isBlank()) {
      String major = version.strip().split("\\.", 2)[0];
      if (!major.chars().allMatch(Character::isDigit) || major.isEmpty()) {
        return "Spark " + version + " wrote it, a version whose calendar is unknown";
      }
      if (Integer.parseInt(major) < 3) {
        return "Spark " + version + " wrote it (before 3.0 Spark wrote the hybrid calendar)";
      }
    }
    return null;
  }

  /** Dates before this differ between the hybrid and the proleptic Gregorian calendar. */
  static final String GREGORIAN_CUTOVER = "1582-10-15";

  /**
   * Timestamps before this may differ: Spark's legacy INT96 rebase also shifts times before 1900.
   */
  static final String INT96_REBASE_CUTOVER = "1900-01-01 00:00:00";

  /**
   * Refuses a legacy-calendar file holding a date or timestamp early enough to read differently in
   * the proleptic Gregorian calendar: DuckDB would read (and the verifier measure) the stored days,
   * while Spark reads them rebased, so a rewrite would silently move those values. A nested date or
   * timestamp cannot be bounded cheaply and refuses the file outright.
   */
  private void refuseAncientDatetimes(
      Path file, List<String[]> elements, List<String> spelling, String calendar)
      throws SQLException, Refused {
    Map<String, String> top = topLevel(elements);
    long datetimesAnywhere = elements.stream().skip(1).filter(e -> isDatetime(e[2])).count();
    long datetimesOnTop = top.values().stream().filter(RewriteVerifier::isDatetime).count();
    String refusal =
        "file "
            + file.getFileName()
            + " keeps dates and timestamps in Spark's legacy hybrid calendar ("
            + calendar
            + ")";
    String remedy =
        "; a rewrite would shift those values by days. Rewrite the partition with Spark"
            + " (spark.sql.parquet.datetimeRebaseModeInWrite=CORRECTED) or leave it out of the"
            + " partition filter";
    if (datetimesAnywhere > datetimesOnTop) {
      throw new Refused(refusal + " and a nested date or timestamp column" + remedy);
    }
    for (String name : spelling) {
      if (name == null || !isDatetime(top.get(name))) {
        continue;
      }
      boolean isDate = top.get(name).equals("DATE");
      String bound =
          isDate ? "DATE '" + GREGORIAN_CUTOVER + "'" : "TIMESTAMP '" + INT96_REBASE_CUTOVER + "'";
      String sql =
          "SELECT count(*) FROM read_parquet("
              + Sql.pathList(List.of(file))
              + ") WHERE CAST("
              + Sql.identifier(name)
              + " AS "
              + (isDate ? "DATE" : "TIMESTAMP")
              + ") < "
              + bound;
      try (Statement s = connection.createStatement();
          ResultSet rs = s.executeQuery(sql)) {
        rs.next();
        long early = rs.getLong(1);
        if (early > 0) {
          throw new Refused(
              refusal
                  + " and "
                  + early
                  + " value(s) of "
                  + name
                  + " before "
                  + (isDate ? GREGORIAN_CUTOVER : INT96_REBASE_CUTOVER)
                  + remedy);
        }
      }
    }
  }

  private static boolean isDatetime(String duckDbType) {
    return duckDbType != null && (duckDbType.equals("DATE") || duckDbType.startsWith("TIMESTAMP"));
  }

  /**
   * The top-level fields of a flattened Parquet schema (root first, depth-first): name to the
   * DuckDB type it reads as, in file order.
   */
  static Map<String, String> topLevel(List<String[]> elements) {
    Map<String, String> fields = new LinkedHashMap<>();
    int children = Integer.parseInt(elements.get(0)[1]);
    int at = 1;
    for (int i = 0; i < children && at < elements.size(); i++) {
      fields.put(elements.get(at)[0], elements.get(at)[2]);
      at = skip(elements, at);
    }
    return fields;
  }

  /** The index after the subtree starting at {@code at}. */
  private static int skip(List<String[]> elements, int at) {
    int children = Integer.parseInt(elements.get(at)[1]);
    int next = at + 1;
    for (int i = 0; i < children && next < elements.size(); i++) {
      next = skip(elements, next);
    }
    return next;
  }

  private List<String> resolve(Path file, Map<String, String> fields) throws Refused {
    List<String> spelling = new ArrayList<>();
    for (Column column : dataColumns) {
      List<String> matches =
          fields.keySet().stream().filter(n -> n.equalsIgnoreCase(column.name())).toList();
      if (matches.size() > 1) {
        throw new Refused(
            "file "
                + file.getFileName()
                + " is ambiguous: "
                + matches.size()
                + " columns match "
                + column.name()
                + " ("
                + String.join(", ", matches)
                + "); Delta readers resolve names"
                + " case-insensitively, so which one they read is undefined");
      }
      if (!matches.isEmpty()) {
        String lossy = lossyRead(column, fields.get(matches.get(0)));
        if (lossy != null) {
          throw new Refused(
              "file "
                  + file.getFileName()
                  + " stores column "
                  + column.name()
                  + " ("
                  + column.type()
                  + ") as "
                  + fields.get(matches.get(0))
                  + ": "
                  + lossy);
        }
      }
      spelling.add(matches.isEmpty() ? null : matches.get(0));
    }
    return spelling;
  }

  /**
   * The file's field for {@code column} under column mapping: by field id in {@code id} mode (when
   * the column has one), else by physical name, case-insensitively; empty when the file lacks it.
   *
   * @throws Refused when two fields match
   */
  private Optional<FooterField> mappedField(Path file, Column column, List<FooterField> fields)
      throws Refused {
    boolean byId = mode == ColumnMappingMode.ID && column.fieldId().isPresent();
    List<FooterField> matches =
        fields.stream()
            .filter(
                f ->
                    byId
                        ? f.fieldId().equals(column.fieldId())
                        : f.name().equalsIgnoreCase(column.physicalName()))
            .toList();
    if (matches.size() > 1) {
      throw new Refused(
          "file "
              + file.getFileName()
              + " is ambiguous: "
              + matches.size()
              + " fields match column "
              + column.name()
              + (byId
                  ? " (field id " + column.fieldId().getAsInt() + ")"
                  : " (physical name " + column.physicalName() + ")")
              + "; which one readers take is undefined");
    }
    return matches.stream().findFirst();
  }

  /** The file's top-level name of each data column under column mapping (null: absent). */
  private List<String> mappedNames(Path file, List<FooterField> fields) throws Refused {
    List<String> names = new ArrayList<>();
    for (Column column : dataColumns) {
      Optional<FooterField> field = mappedField(file, column, fields);
      if (field.isPresent() && !column.isStruct()) {
        String lossy = lossyRead(column, field.get().duckDbType());
        if (lossy != null) {
          throw new Refused(
              "file "
                  + file.getFileName()
                  + " stores column "
                  + column.name()
                  + " ("
                  + column.type()
                  + ") as "
                  + field.get().duckDbType()
                  + ": "
                  + lossy);
        }
      }
      if (field.isPresent()) {
        refuseMappedNested(file, column, field.get().children());
      }
      names.add(field.map(FooterField::name).orElse(null));
    }
    return names;
  }

  /** Refuses ambiguous nested fields, checked like top-level ones. */
  private void refuseMappedNested(Path file, Column column, List<FooterField> children)
      throws Refused {
    if (!column.isStruct()) {
      return;
    }
    for (Column child : column.fields()) {
      Optional<FooterField> field = mappedField(file, child, children);
      if (field.isPresent()) {
        refuseMappedNested(file, child, field.get().children());
      }
    }
  }

  /**
   * Per data column, the expression reading it from a file under column mapping (null: absent): a
   * struct is rebuilt field by field from the fields matched at each level (the names it is packed
   * under do not matter: a struct's hash is over its values), each leaf cast to its Delta type.
   */
  private List<String> mappedValues(List<FooterField> fields) {
    List<String> values = new ArrayList<>();
    for (Column column : dataColumns) {
      Optional<FooterField> field = firstMatch(column, fields);
      values.add(
          field.isEmpty()
              ? null
              : column.isStruct()
                  ? mappedStruct(column, field.get(), Sql.identifier(field.get().name()))
                  : Sql.identifier(field.get().name()));
    }
    return values;
  }

  private Optional<FooterField> firstMatch(Column column, List<FooterField> fields) {
    boolean byId = mode == ColumnMappingMode.ID && column.fieldId().isPresent();
    return fields.stream()
        .filter(
            f ->
                byId
                    ? f.fieldId().equals(column.fieldId())
                    : f.name().equalsIgnoreCase(column.physicalName()))
        .findFirst();
  }

  private String mappedStruct(Column column, FooterField field, String ref) {
    List<String> members = new ArrayList<>();
    int i = 0;
    for (Column child : column.fields()) {
      Optional<FooterField> sub = firstMatch(child, field.children());
      String value;
      if (sub.isEmpty()) {
        value = "NULL";
      } else {
        String subRef = "struct_extract(" + ref + ", " + Sql.literal(sub.get().name()) + ")";
        String type = Projection.duckDbType(child.type());
        value =
            child.isStruct()
                ? mappedStruct(child, sub.get(), subRef)
                : type == null ? subRef : "CAST(" + subRef + " AS " + type + ")";
      }
      members.add("v" + i++ + " := " + value);
    }
    return "CASE WHEN "
        + ref
        + " IS NULL THEN NULL ELSE struct_pack("
        + String.join(", ", members)
        + ") END";
  }

  /**
   * Refuses outputs of a column-mapped table that do not name every column (and struct field) by
   * its physical name, in schema order, with the schema's field id where it has one: readers in
   * {@code name} mode would read NULLs, in {@code id} mode other columns.
   *
   * @throws Refused naming the first file and field that differ
   */
  void refuseUnmappedOutputs(List<Path> outputs) throws SQLException, Refused {
    if (!mode.isMapped() || outputs.isEmpty()) {
      return;
    }
    Map<Path, List<FooterField>> footers = FooterField.read(connection, outputs);
    for (Path file : outputs) {
      String wrong = mismatch(dataColumns, footers.get(file), "");
      if (wrong != null) {
        throw new Refused(
            "rewritten file "
                + file.getFileName()
                + " does not name its columns as the table's column mapping says: "
                + wrong);
      }
    }
  }

  private static String mismatch(List<Column> columns, List<FooterField> fields, String at) {
    if (columns.size() != fields.size()) {
      return at + "has " + fields.size() + " fields where the schema has " + columns.size();
    }
    for (int i = 0; i < columns.size(); i++) {
      Column column = columns.get(i);
      FooterField field = fields.get(i);
      if (!field.name().equals(column.physicalName())) {
        return at
            + "field "
            + field.name()
            + " where column "
            + column.name()
            + " has physical name "
            + column.physicalName();
      }
      if (column.fieldId().isPresent() && !field.fieldId().equals(column.fieldId())) {
        return at
            + "field "
            + field.name()
            + " has field id "
            + (field.fieldId().isPresent() ? field.fieldId().getAsInt() : "none")
            + " where column "
            + column.name()
            + " has "
            + column.fieldId().getAsInt();
      }
      if (column.isStruct()) {
        String nested = mismatch(column.fields(), field.children(), at + column.name() + ".");
        if (nested != null) {
          return nested;
        }
      }
    }
    return null;
  }

  private static final java.util.regex.Pattern DECIMAL =
      java.util.regex.Pattern.compile("(?i)decimal\\((\\d+),\\s*(\\d+)\\)");

  /**
   * Why a file's column, read as {@code fileType} (DuckDB's name), cannot become its Delta type
   * without loss or ambiguity; null when it can.
   */
  static String lossyRead(Column column, String fileType) {
    String type = column.type();
    if (type.equals("string") && fileType.equals("BLOB")) {
      return "binary without a UTF8 annotation (a legacy writer); rewriting it as text could change"
          + " its bytes, and readers disagree on how to decode it";
    }
    if ((type.equals("timestamp") || type.equals("timestamp_ntz")) && fileType.endsWith("_NS")) {
      return "nanoseconds; Delta keeps microseconds, so a rewrite would round the values";
    }
    java.util.regex.Matcher want = DECIMAL.matcher(type);
    java.util.regex.Matcher have = DECIMAL.matcher(fileType);
    if (want.matches() && have.matches()) {
      int precision = Integer.parseInt(want.group(1));
      int scale = Integer.parseInt(want.group(2));
      if (Integer.parseInt(have.group(2)) != scale || Integer.parseInt(have.group(1)) > precision) {
        return "a decimal of another scale or a larger precision; rewriting it as "
            + type
            + " would round or overflow values (Delta readers refuse such files)";
      }
    }
    return null;
  }

  @Override
  public void close() throws SQLException {
    connection.close();
  }
}
