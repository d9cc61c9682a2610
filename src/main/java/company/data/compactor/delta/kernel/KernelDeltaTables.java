package company.data.compactor.delta.kernel;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.delta.DeltaTables;
import company.data.compactor.error.Errors;
import company.data.compactor.model.ColumnMappingMode;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.DeletionVector;
import company.data.compactor.model.PartitionValues;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSchema;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.Storage;
import io.delta.kernel.Snapshot;
import io.delta.kernel.TableManager;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.exceptions.KernelException;
import io.delta.kernel.exceptions.TableNotFoundException;
import io.delta.kernel.exceptions.UnsupportedProtocolVersionException;
import io.delta.kernel.exceptions.UnsupportedTableFeatureException;
import io.delta.kernel.internal.InternalScanFileUtils;
import io.delta.kernel.internal.util.VectorUtils;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/** {@link DeltaTables} on Delta kernel, reading through the storage port. */
public final class KernelDeltaTables implements DeltaTables {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** Log tail commits fetched at once before a snapshot load (see {@link PrefetchedLogTail}). */
  public static final int LOG_TAIL_CONCURRENCY = 32;

  private final Storage storage;
  private final KernelSnapshotShelf shelf;

  /** Reads tables on {@code storage}. */
  public KernelDeltaTables(Storage storage) {
    this(storage, new KernelSnapshotShelf());
  }

  /**
   * Reads tables on {@code storage}, shelving each snapshot loaded in full (its active files listed
   * and checked) for the committer sharing {@code shelf}.
   */
  public KernelDeltaTables(Storage storage, KernelSnapshotShelf shelf) {
    this.storage = storage;
    this.shelf = shelf;
  }

  @Override
  public boolean exists(TableLocation location) {
    try {
      return storage.listFrom(location.child("_delta_log/0")).stream()
          .anyMatch(o -> o.name().matches("\\d{20}\\.(json|checkpoint.*\\.parquet)"));
    } catch (java.io.FileNotFoundException e) {
      return false;
    } catch (IOException e) {
      throw Errors.operationFailed("listing the log of " + location, e);
    }
  }

  @Override
  public TableSnapshot loadLatest(TableLocation location) {
    return loadNamingCorruption(location, java.util.OptionalLong.empty());
  }

  @Override
  public TableSnapshot loadAt(TableLocation location, long version) {
    return loadNamingCorruption(location, java.util.OptionalLong.of(version));
  }

  /** The snapshot; a checkpoint that is not Parquet is named in the error. */
  private TableSnapshot loadNamingCorruption(
      TableLocation location, java.util.OptionalLong version) {
    try {
      return loadSnapshot(location, version);
    } catch (RuntimeException e) {
      String notParquet = notParquetMessage(e);
      if (notParquet == null) {
        throw e;
      }
      throw Errors.corruptCheckpoint(location, corruptCheckpoints(location), notParquet, e);
    }
  }

  /**
   * The "is not a Parquet file" message of a failure kernel's Parquet reader raised, without the
   * reader's object name (kernel names the file by an anonymous object, not its path); null for any
   * other failure.
   */
  static String notParquetMessage(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      String message = t.getMessage();
      int at = message == null ? -1 : message.indexOf(" is not a Parquet file");
      if (at >= 0) {
        return "not a Parquet file" + message.substring(at + " is not a Parquet file".length());
      }
    }
    return null;
  }

  /** The log's checkpoint files that do not end with Parquet's magic number {@code PAR1}. */
  private List<String> corruptCheckpoints(TableLocation location) {
    List<String> corrupt = new ArrayList<>();
    String log = location.child("_delta_log");
    try {
      for (var o : storage.listFrom(log + "/" + "0".repeat(20))) {
        if (!o.name().matches("\\d{20}\\.checkpoint.*\\.parquet")) {
          continue;
        }
        byte[] tail = new byte[4];
        int read = 0;
        if (o.sizeBytes() >= 4) {
          try (java.io.InputStream in = storage.openFrom(o.path(), o.sizeBytes() - 4)) {
            read = in.readNBytes(tail, 0, 4);
          }
        }
        if (read < 4
            || !new String(tail, java.nio.charset.StandardCharsets.US_ASCII).equals("PAR1")) {
          corrupt.add(o.path());
        }
      }
    } catch (IOException | UncheckedIOException e) {
      // The error still says what kernel found; it just cannot name the file.
    }
    return corrupt;
  }

  private TableSnapshot loadSnapshot(TableLocation location, java.util.OptionalLong version) {
    Engine engine = KernelEngines.over(withLogTail(location));
    Snapshot snapshot = load(location, engine, version);
    TableSchema schema =
        KernelTypes.toModel(
            snapshot.getSchema(),
            snapshot.getPartitionColumnNames(),
            ColumnMappingMode.of(snapshot.getTableProperties()));
    List<DataFile> files = new ArrayList<>();
    ScanFilePaths paths = new ScanFilePaths();
    try (CloseableIterator<FilteredColumnarBatch> batches =
        snapshot.getScanBuilder().build().getScanFiles(engine, true)) {
      while (batches.hasNext()) {
        try (CloseableIterator<Row> rows = batches.next().getRows()) {
          while (rows.hasNext()) {
            files.add(toDataFile(location, rows.next(), schema, paths));
          }
        }
      }
    } catch (KernelException | UncheckedIOException e) {
      throw Errors.operationFailed(
          "listing the active files of " + location + " at version " + snapshot.getVersion(), e);
    } catch (IOException e) {
      throw Errors.operationFailed("closing the file listing of " + location, e);
    }
    refuseFilesOutsideRoot(location, files);
    refuseFilesLinkedOutsideRoot(location, files);
    shelf.put(location.uri(), snapshot, engine);
    return new TableSnapshot(
        location,
        snapshot.getVersion(),
        schema,
        files,
        snapshot.getTableProperties(),
        features(snapshot),
        unwritableFeatures(snapshot));
  }

  /**
   * A log is data, not trust: an add path, or the file of its deletion vector, that resolves
   * outside the table root (another bucket, an absolute path elsewhere, {@code ../x.parquet}) would
   * make every later step read, write beside or delete files the table's URI, and so the allowlist,
   * never named. Such a table is refused before any step sees its files.
   */
  private static void refuseFilesOutsideRoot(TableLocation location, List<DataFile> files) {
    List<String> outside =
        readFiles(files).stream()
            .filter(f -> !location.contains(f.path()))
            .map(f -> f.path() + " (" + f.what() + ")")
            .toList();
    if (!outside.isEmpty()) {
      throw Errors.filesOutsideRoot(location, outside);
    }
  }

  /** A file the active set reads, with what it is to the log. */
  private record ReadFile(String path, String what) {}

  /** Every data file of {@code files} and the file of each one's deletion vector, if it has one. */
  private static List<ReadFile> readFiles(List<DataFile> files) {
    List<ReadFile> read = new ArrayList<>();
    for (DataFile f : files) {
      read.add(new ReadFile(f.path(), "logged as " + f.logPath()));
      f.deletionVector()
          .flatMap(company.data.compactor.model.DeletionVector::file)
          .ifPresent(dv -> read.add(new ReadFile(dv, "the deletion vector of " + f.path())));
    }
    return read;
  }

  /**
   * The same rule through symbolic links (local disk; storage without links answers every path
   * itself): an active file (or its deletion-vector file) whose real path is not under the root's
   * real path, a link to a file elsewhere or a file in a linked directory, is refused like a logged
   * path outside the root.
   */
  private void refuseFilesLinkedOutsideRoot(TableLocation location, List<DataFile> files) {
    try {
      TableLocation realRoot =
          new TableLocation(TableLocation.canonicalPath(storage.realPath(location.uri())));
      List<ReadFile> read = readFiles(files);
      List<String> reals = storage.realPaths(read.stream().map(ReadFile::path).toList());
      List<String> outside = new ArrayList<>();
      for (int i = 0; i < read.size(); i++) {
        ReadFile file = read.get(i);
        String real = reals.get(i);
        if (!realRoot.contains(real)) {
          outside.add(file.path() + " (" + file.what() + ", a symbolic link to " + real + ")");
        }
      }
      if (!outside.isEmpty()) {
        throw Errors.filesOutsideRoot(location, outside);
      }
    } catch (IOException e) {
      throw Errors.operationFailed(
          "resolving the real paths of the active files of " + location, e);
    }
  }

  /**
   * The storage with the log's tail fetched concurrently for this load; the plain storage when the
   * tail cannot be fetched ahead (kernel then reads it, and reports what is wrong, as before).
   */
  private Storage withLogTail(TableLocation location) {
    try {
      return PrefetchedLogTail.of(storage, location, LOG_TAIL_CONCURRENCY);
    } catch (java.io.FileNotFoundException e) {
      return storage;
    } catch (IOException e) {
      // The store itself failed (no credentials, endpoint unreachable): say why now, in one line,
      // rather than let kernel retry its checkpoint hint and report "Failed to list the files".
      throw Errors.operationFailed("listing the Delta log of " + location, e);
    } catch (UncheckedIOException e) {
      return storage;
    }
  }

  private Snapshot load(TableLocation location, Engine engine, java.util.OptionalLong version) {
    try {
      var builder = TableManager.loadSnapshot(location.uri()).withCommitter(shelf.committer());
      if (version.isPresent()) {
        builder = builder.atVersion(version.getAsLong());
      }
      return builder.build(engine);
    } catch (TableNotFoundException e) {
      throw Errors.tableNotFound(location, e);
    } catch (UnsupportedTableFeatureException | UnsupportedProtocolVersionException e) {
      throw Errors.unsupportedTable(location, e.getMessage());
    } catch (KernelException | UncheckedIOException e) {
      throw Errors.operationFailed(
          (version.isPresent() ? "loading version " + version.getAsLong() : "loading the latest")
              + " snapshot of "
              + location,
          e);
    }
  }

  private static java.util.Set<String> features(Snapshot snapshot) {
    return snapshot.getProtocol().getImplicitlyAndExplicitlySupportedFeatures().stream()
        .map(io.delta.kernel.internal.tablefeatures.TableFeature::featureName)
        .collect(java.util.stream.Collectors.toSet());
  }

  /**
   * Kernel's own rule for what it will not commit to: a writer feature it supports only while the
   * table does not use it (a CHECK constraint, a generated or identity column, an invariant). Asked
   * at load so the run refuses by name before writing, not at commit after uploading.
   */
  private static java.util.Set<String> unwritableFeatures(Snapshot snapshot) {
    if (!(snapshot instanceof io.delta.kernel.internal.SnapshotImpl impl)) {
      return java.util.Set.of();
    }
    io.delta.kernel.internal.actions.Metadata metadata = impl.getMetadata();
    return impl.getProtocol().getImplicitlyAndExplicitlySupportedFeatures().stream()
        .filter(feature -> !feature.hasKernelWriteSupport(metadata))
        .map(io.delta.kernel.internal.tablefeatures.TableFeature::featureName)
        .collect(java.util.stream.Collectors.toSet());
  }

  /**
   * A scan file as the model's data file. Its partition values are keyed in the log by physical
   * names (column mapping); the model keys them by the schema's names.
   */
  private static DataFile toDataFile(
      TableLocation location, Row scanFile, TableSchema schema, ScanFilePaths paths) {
    FileStatus status = paths.status(scanFile);
    Map<String, String> logged = InternalScanFileUtils.getPartitionValues(scanFile);
    Map<String, String> byName = new java.util.HashMap<>();
    for (String column : schema.partitionColumns()) {
      byName.put(column, logged.get(schema.physicalName(column)));
    }
    PartitionValues partition = PartitionValues.of(schema.partitionColumns(), byName);
    Row add = scanFile.getStruct(InternalScanFileUtils.ADD_FILE_ORDINAL);
    int dvIndex = add.getSchema().indexOf("deletionVector");
    int statsIndex = add.getSchema().indexOf("stats");
    Optional<DeletionVector> deletionVector =
        dvIndex >= 0 && !add.isNullAt(dvIndex)
            ? Optional.of(
                KernelDeletionVectors.of(
                    location, add.getStruct(dvIndex), InternalScanFileUtils.getFilePath(scanFile)))
            : Optional.empty();
    return new DataFile(
        TableLocation.canonicalPath(status.getPath()),
        InternalScanFileUtils.getFilePath(scanFile),
        status.getSize(),
        partition,
        numRecords(scanFile),
        status.getModificationTime(),
        deletionVector.isPresent(),
        statsIndex >= 0 && !add.isNullAt(statsIndex) ? add.getString(statsIndex) : null,
        zOrderedBy(add),
        deletionVector);
  }

  /**
   * A scan file's {@link FileStatus} as {@link InternalScanFileUtils#getAddFileStatus} builds it,
   * its path resolved by {@link LogPaths} against the scan file's table root with the same {@code
   * Path} arithmetic (one root per snapshot; kept while it stays the same).
   */
  static final class ScanFilePaths {
    private String root;
    private LogPaths paths;

    FileStatus status(Row scanFile) {
      String tableRoot =
          scanFile.getString(
              scanFile
                  .getSchema()
                  .indexOf(InternalScanFileUtils.TABLE_ROOT_STRUCT_FIELD.getName()));
      if (paths == null || !tableRoot.equals(root)) {
        root = tableRoot;
        paths = LogPaths.resolvedBy(logged -> kernelResolution(tableRoot, logged));
      }
      Row add = scanFile.getStruct(InternalScanFileUtils.ADD_FILE_ORDINAL);
      return FileStatus.of(
          paths.resolve(InternalScanFileUtils.getFilePath(scanFile)),
          add.getLong(add.getSchema().indexOf("size")),
          add.getLong(add.getSchema().indexOf("modificationTime")));
    }

    /** What {@link InternalScanFileUtils#getAddFileStatus} makes of {@code logged} under a root. */
    static String kernelResolution(String tableRoot, String logged) {
      return new io.delta.kernel.internal.fs.Path(
              new io.delta.kernel.internal.fs.Path(java.net.URI.create(tableRoot)),
              new io.delta.kernel.internal.fs.Path(java.net.URI.create(logged)))
          .toString();
    }
  }

  /** The columns in the file's {@link DataFile#ZORDER_TAG} tag, empty without one. */
  private static List<String> zOrderedBy(Row add) {
    int tagsIndex = add.getSchema().indexOf("tags");
    if (tagsIndex < 0 || add.isNullAt(tagsIndex)) {
      return List.of();
    }
    Map<String, String> tags = VectorUtils.toJavaMap(add.getMap(tagsIndex));
    String value = tags.get(DataFile.ZORDER_TAG);
    if (value == null) {
      return List.of();
    }
    try {
      List<String> columns = new java.util.ArrayList<>();
      JSON.readTree(value).forEach(c -> columns.add(c.asText()));
      return columns;
    } catch (IOException e) {
      return List.of();
    }
  }

  private static OptionalLong numRecords(Row scanFile) {
    Row add = scanFile.getStruct(InternalScanFileUtils.ADD_FILE_ORDINAL);
    int statsIndex = add.getSchema().indexOf("stats");
    if (statsIndex < 0 || add.isNullAt(statsIndex)) {
      return OptionalLong.empty();
    }
    return numRecords(add.getString(statsIndex));
  }

  private static final String NUM_RECORDS_FIRST = "{\"numRecords\":";

  /**
   * The count when the document starts {@code {"numRecords":<digits>,} or ends after the digits
   * (every writer we know puts it first): read without a parser. Anything else (spaces, another
   * field first, a sign, an exponent) is left to the parser.
   */
  private static OptionalLong leadingNumRecords(String stats) {
    if (!stats.startsWith(NUM_RECORDS_FIRST)) {
      return OptionalLong.empty();
    }
    int start = NUM_RECORDS_FIRST.length();
    int end = start;
    while (end < stats.length() && end - start < 18 && Character.isDigit(stats.charAt(end))) {
      end++;
    }
    if (end == start
        || end >= stats.length()
        || (stats.charAt(end) != ',' && stats.charAt(end) != '}')
        || (stats.charAt(start) == '0' && end - start > 1)) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(Long.parseLong(stats, start, end, 10));
  }

  /**
   * The top-level {@code numRecords} of a stats document, read by streaming up to it: the min/max
   * values after it are never materialized (a table of 100,000 files parses 100,000 of these).
   */
  static OptionalLong numRecords(String stats) {
    OptionalLong leading = leadingNumRecords(stats);
    if (leading.isPresent()) {
      return leading;
    }
    try (JsonParser parser = JSON.getFactory().createParser(stats)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        return OptionalLong.empty();
      }
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String name = parser.currentName();
        JsonToken value = parser.nextToken();
        if (name.equals("numRecords")) {
          return value == JsonToken.VALUE_NUMBER_INT
              ? OptionalLong.of(parser.getLongValue())
              : OptionalLong.empty();
        }
        parser.skipChildren();
      }
      return OptionalLong.empty();
    } catch (IOException e) {
      // Unreadable stats only cost us the row count; the file itself is still listed.
      return OptionalLong.empty();
    }
  }
}
