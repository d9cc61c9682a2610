package company.data.compactor.delta.kernel;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.delta.LaterAdds;
import company.data.compactor.delta.LogHistory;
import company.data.compactor.delta.LogReader;
import company.data.compactor.delta.Tombstone;
import company.data.compactor.error.Errors;
import company.data.compactor.model.TableLocation;
import company.data.compactor.storage.BoundedConcurrency;
import company.data.compactor.storage.Storage;
import company.data.compactor.storage.StoredObject;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.engine.FileReadResult;
import io.delta.kernel.internal.fs.Path;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@link LogReader} over the storage port: JSON commits parsed with Jackson, the latest classic
 * checkpoint read with kernel's Parquet reader. Paths are resolved against the table root the way
 * kernel resolves {@code add.path}; a removed or re-added path that resolves outside the root
 * ({@link TableLocation#contains}) is left out of the history, so vacuum can never consider it.
 */
public final class KernelLogReader implements LogReader {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern COMMIT = Pattern.compile("(\\d{20})\\.json");
  private static final Pattern CHECKPOINT =
      Pattern.compile("(\\d{20})\\.checkpoint(\\.\\d{10}\\.\\d{10})?\\.parquet");
  private static final StructType DELETION_VECTOR_SCHEMA =
      new StructType()
          .add("storageType", StringType.STRING)
          .add("pathOrInlineDv", StringType.STRING)
          .add("cardinality", LongType.LONG);
  private static final StructType REMOVE_SCHEMA =
      new StructType()
          .add(
              "remove",
              new StructType()
                  .add("path", StringType.STRING)
                  .add("deletionTimestamp", LongType.LONG)
                  .add("deletionVector", DELETION_VECTOR_SCHEMA));

  private static final Set<String> COMMIT_INFO_FIELDS = Set.of("inCommitTimestamp", "timestamp");
  private static final Set<String> REMOVE_FIELDS =
      Set.of("path", "deletionTimestamp", "deletionVector");
  private static final Set<String> ADD_FIELDS = Set.of("path", "deletionVector");
  private static final Set<String> CDC_FIELDS = Set.of("path");
  private static final Set<String> DELETION_VECTOR_FIELDS =
      Set.of("storageType", "pathOrInlineDv", "cardinality");

  /** Removal time of a change-data file whose version is still the latest: it never expired. */
  private static final long NEVER = Long.MAX_VALUE;

  /** Commits fetched at once by default: what a reader such as delta-rs uses. */
  public static final int DEFAULT_CONCURRENCY = 16;

  /** Commits held in memory at once, parsed but not merged yet. */
  private static final int WINDOW = 512;

  private final Storage storage;
  private final Engine engine;
  private final int concurrency;

  /** Reads the log with {@value #DEFAULT_CONCURRENCY} commits in flight. */
  public KernelLogReader(Storage storage) {
    this(storage, DEFAULT_CONCURRENCY);
  }

  /**
   * Reads the log with at most {@code concurrency} commit files in flight (1: one after another).
   */
  public KernelLogReader(Storage storage, int concurrency) {
    if (concurrency < 1) {
      throw new IllegalArgumentException("log read concurrency must be >= 1, got " + concurrency);
    }
    this.storage = storage;
    this.engine = KernelEngines.over(storage);
    this.concurrency = concurrency;
  }

  @Override
  public LogHistory read(TableLocation location) {
    try {
      List<StoredObject> log = storage.listFrom(location.child("_delta_log/0"));
      Map<Long, StoredObject> commits = new java.util.TreeMap<>();
      Map<Long, List<StoredObject>> checkpoints = new java.util.TreeMap<>();
      for (StoredObject object : log) {
        Matcher commit = COMMIT.matcher(object.name());
        Matcher checkpoint = CHECKPOINT.matcher(object.name());
        if (commit.matches()) {
          commits.put(Long.parseLong(commit.group(1)), object);
        } else if (checkpoint.matches()) {
          checkpoints
              .computeIfAbsent(Long.parseLong(checkpoint.group(1)), k -> new ArrayList<>())
              .add(object);
        }
      }
      if (commits.isEmpty()) {
        throw Errors.tableNotFound(location, null);
      }
      LogPaths paths = resolverFor(location);
      Map<String, Tombstone> latestRemoval = new HashMap<>();
      Map<String, Long> latestAdd = new HashMap<>();
      long checkpointVersion = -1;
      if (!checkpoints.isEmpty()) {
        var last = ((java.util.TreeMap<Long, List<StoredObject>>) checkpoints).lastEntry();
        checkpointVersion = last.getKey();
        for (Tombstone t : checkpointTombstones(location, paths, last.getValue())) {
          latestRemoval.merge(t.path(), t, KernelLogReader::later);
        }
      }
      long oldestVersion = commits.keySet().iterator().next();
      long latest =
          Math.max(checkpointVersion, ((java.util.TreeMap<Long, StoredObject>) commits).lastKey());
      Map<Long, Long> commitMillis = new HashMap<>();
      Map<String, Long> changeData = new HashMap<>();
      Set<String> deletionVectorFiles = new HashSet<>();
      CommitSink sink = new CommitSink(latestRemoval, latestAdd, changeData, deletionVectorFiles);
      List<Map.Entry<Long, StoredObject>> entries = new ArrayList<>(commits.entrySet());
      // Fetched and parsed concurrently, a window at a time (bounded memory), merged in version
      // order: the same result as reading one commit after another, without paying the object
      // store's per-request latency once per commit.
      for (int from = 0; from < entries.size(); from += WINDOW) {
        List<Map.Entry<Long, StoredObject>> window =
            entries.subList(from, Math.min(entries.size(), from + WINDOW));
        // The biggest commits are started first: one commit of 100,000 removes started last
        // would be parsed alone while the other threads idle.
        List<Map.Entry<Long, StoredObject>> biggestFirst = new ArrayList<>(window);
        biggestFirst.sort(
            java.util.Comparator.comparingLong(
                    (Map.Entry<Long, StoredObject> e) -> e.getValue().sizeBytes())
                .reversed()
                .thenComparing(Map.Entry::getKey));
        Map<Long, CommitFindings> parsed = new HashMap<>();
        for (CommitFindings found :
            BoundedConcurrency.mapInOrder(
                biggestFirst,
                concurrency,
                e -> readCommit(location, paths, e.getKey(), e.getValue()))) {
          parsed.put(found.version(), found);
        }
        for (Map.Entry<Long, StoredObject> e : window) {
          commitMillis.put(e.getKey(), parsed.get(e.getKey()).merge(sink));
        }
      }
      long oldestMillis = commitMillis.get(oldestVersion);
      // A change-data file describes its version's changes; it stops being needed when the next
      // version is committed, so it "expires" with that commit's time (never, for the latest).
      changeData.forEach(
          (path, version) ->
              latestRemoval.merge(
                  path,
                  new Tombstone(path, commitMillis.getOrDefault(version + 1, NEVER), version),
                  KernelLogReader::later));
      Set<String> readded = new HashSet<>();
      latestAdd.forEach(
          (path, version) -> {
            Tombstone removal = latestRemoval.get(path);
            if (removal != null
                ? version > removal.version()
                : deletionVectorFiles.contains(path)) {
              readded.add(path);
            }
          });
      // A tombstone outside the root is never a vacuum candidate, however the log spells it.
      List<Tombstone> inside =
          latestRemoval.values().stream().filter(t -> location.contains(t.path())).toList();
      readded.removeIf(path -> !location.contains(path));
      return new LogHistory(
          latest, oldestVersion, oldestMillis, checkpointVersion, new ArrayList<>(inside), readded);
    } catch (IOException | UncheckedIOException e) {
      throw Errors.operationFailed("reading the log history of " + location, e);
    }
  }

  @Override
  public LaterAdds addedAfter(TableLocation location, long version) {
    LogPaths paths = resolverFor(location);
    Set<String> added = new HashSet<>();
    long through = version;
    try {
      while (true) {
        StoredObject commit;
        try {
          commit = storage.stat(location.child("_delta_log/%020d.json".formatted(through + 1)));
        } catch (java.io.FileNotFoundException e) {
          break;
        }
        CommitSink found = readCommit(location, paths, through + 1, commit).found();
        added.addAll(found.adds().keySet());
        added.addAll(found.changeData().keySet());
        through++;
      }
    } catch (IOException | UncheckedIOException e) {
      throw Errors.operationFailed(
          "reading the commits after version " + version + " of " + location, e);
    }
    return new LaterAdds(through, added);
  }

  /** Where one commit's findings go. */
  private record CommitSink(
      Map<String, Tombstone> removals,
      Map<String, Long> adds,
      Map<String, Long> changeData,
      Set<String> deletionVectorFiles) {}

  /**
   * Parses one commit into what it says (merged later, in version order). Streams each action up to
   * the fields it needs (paths, deletion-vector descriptors, deletion and commit timestamps): an
   * add's stats and everything else are skipped unparsed, which keeps a log of 100,000 adds cheap
   * in time and garbage. A removed file's deletion-vector file is tombstoned with it, an added
   * file's counts as added, and a {@code cdc} action's change-data file is recorded with its
   * version.
   */
  private CommitFindings readCommit(
      TableLocation location, LogPaths paths, long version, StoredObject file) throws IOException {
    long commitMillis = file.modificationTimeMillis();
    Map<String, Long> removed = new HashMap<>();
    CommitSink sink = new CommitSink(null, new HashMap<>(), new HashMap<>(), new HashSet<>());
    // One byte-level parser over the whole commit: its actions are JSON objects one after another
    // (one per line), parsed without decoding each line into a string first.
    try (InputStream in = storage.openFrom(file.path(), 0);
        JsonParser parser = JSON.getFactory().createParser(in)) {
      for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
        if (token != JsonToken.START_OBJECT) {
          parser.skipChildren();
          continue;
        }
        {
          while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String action = parser.currentName();
            if (parser.nextToken() != JsonToken.START_OBJECT) {
              parser.skipChildren();
              continue;
            }
            switch (action) {
              case "commitInfo" -> {
                Map<String, Object> info = fields(parser, COMMIT_INFO_FIELDS);
                Object ts =
                    info.containsKey("inCommitTimestamp")
                        ? info.get("inCommitTimestamp")
                        : info.get("timestamp");
                if (ts instanceof Long millis) {
                  commitMillis = Math.max(commitMillis, millis);
                }
              }
              case "remove" -> {
                Map<String, Object> remove = fields(parser, REMOVE_FIELDS);
                if (remove.get("path") instanceof String path) {
                  long deleted =
                      remove.get("deletionTimestamp") instanceof Long millis ? millis : 0;
                  String resolved = paths.resolve(path);
                  removed.merge(resolved, deleted, Math::max);
                  deletionVectorFile(location, remove, resolved)
                      .ifPresent(
                          dv -> {
                            removed.merge(dv, deleted, Math::max);
                            sink.deletionVectorFiles().add(dv);
                          });
                }
              }
              case "add" -> {
                Map<String, Object> add = fields(parser, ADD_FIELDS);
                if (add.get("path") instanceof String path) {
                  String resolved = paths.resolve(path);
                  sink.adds().merge(resolved, version, Math::max);
                  deletionVectorFile(location, add, resolved)
                      .ifPresent(
                          dv -> {
                            sink.adds().merge(dv, version, Math::max);
                            sink.deletionVectorFiles().add(dv);
                          });
                }
              }
              case "cdc" -> {
                if (fields(parser, CDC_FIELDS).get("path") instanceof String path) {
                  sink.changeData().merge(paths.resolve(path), version, Math::max);
                }
              }
              default -> parser.skipChildren();
            }
          }
        }
      }
    }
    return new CommitFindings(version, commitMillis, removed, sink);
  }

  /**
   * What one commit says, before it is merged with the others.
   *
   * @param removed removed paths (and their deletion-vector files) with their deletion timestamps
   * @param found the commit's adds, change-data files and deletion-vector files ({@code removals}
   *     unused)
   */
  private record CommitFindings(
      long version, long commitMillis, Map<String, Long> removed, CommitSink found) {

    /** Merges this commit into {@code sink}; returns its timestamp. Call in version order. */
    long merge(CommitSink sink) {
      for (Map.Entry<String, Long> remove : removed.entrySet()) {
        sink.removals()
            .merge(
                remove.getKey(),
                new Tombstone(remove.getKey(), Math.max(remove.getValue(), commitMillis), version),
                KernelLogReader::later);
      }
      found.adds().forEach((path, v) -> sink.adds().merge(path, v, Math::max));
      found.changeData().forEach((path, v) -> sink.changeData().merge(path, v, Math::max));
      sink.deletionVectorFiles().addAll(found.deletionVectorFiles());
      return commitMillis;
    }
  }

  /** The file of an action's {@code deletionVector}, when it has one stored in a file. */
  private static Optional<String> deletionVectorFile(
      TableLocation location, Map<String, Object> action, String owner) {
    if (!(action.get("deletionVector") instanceof Map<?, ?> descriptor)) {
      return Optional.empty();
    }
    if (!(descriptor.get("storageType") instanceof String type)
        || !(descriptor.get("pathOrInlineDv") instanceof String path)
        || !(descriptor.get("cardinality") instanceof Long cardinality)) {
      throw Errors.operationFailed(
          "reading the deletion vector descriptor of " + owner + " in " + location,
          new IllegalArgumentException("storageType, pathOrInlineDv and cardinality are required"));
    }
    return KernelDeletionVectors.of(location, type, path, cardinality, owner).file();
  }

  /**
   * The wanted top-level fields of the object the parser is in (strings as String, integers as
   * Long), skipping every other value; leaves the parser at the object's end.
   */
  private static Map<String, Object> fields(JsonParser parser, Set<String> wanted)
      throws IOException {
    Map<String, Object> found = new HashMap<>();
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String name = parser.currentName();
      JsonToken value = parser.nextToken();
      if (wanted.contains(name) && value == JsonToken.VALUE_STRING) {
        found.put(name, parser.getText());
      } else if (wanted.contains(name) && value == JsonToken.VALUE_NUMBER_INT) {
        found.put(name, parser.getLongValue());
      } else if (wanted.contains(name)
          && value == JsonToken.START_OBJECT
          && name.equals("deletionVector")) {
        found.put(name, fields(parser, DELETION_VECTOR_FIELDS));
      } else {
        parser.skipChildren();
      }
    }
    return found;
  }

  private List<Tombstone> checkpointTombstones(
      TableLocation location, LogPaths resolver, List<StoredObject> parts) throws IOException {
    List<Tombstone> found = new ArrayList<>();
    List<FileStatus> files =
        parts.stream()
            .map(p -> FileStatus.of(p.path(), p.sizeBytes(), p.modificationTimeMillis()))
            .toList();
    try (CloseableIterator<FileReadResult> batches =
        engine
            .getParquetHandler()
            .readParquetFiles(KernelIterators.of(files), REMOVE_SCHEMA, Optional.empty())) {
      while (batches.hasNext()) {
        ColumnarBatch batch = batches.next().getData();
        ColumnVector remove = batch.getColumnVector(0);
        ColumnVector paths = remove.getChild(0);
        ColumnVector timestamps = remove.getChild(1);
        ColumnVector dv = remove.getChild(2);
        for (int row = 0; row < batch.getSize(); row++) {
          if (!remove.isNullAt(row) && !paths.isNullAt(row)) {
            long ts = timestamps.isNullAt(row) ? 0 : timestamps.getLong(row);
            String path = resolver.resolve(paths.getString(row));
            found.add(new Tombstone(path, ts, -1));
            if (!dv.isNullAt(row)) {
              if (dv.getChild(0).isNullAt(row)
                  || dv.getChild(1).isNullAt(row)
                  || dv.getChild(2).isNullAt(row)) {
                throw Errors.operationFailed(
                    "reading the deletion vector descriptor of " + path + " in " + location,
                    new IllegalArgumentException(
                        "storageType, pathOrInlineDv and cardinality are required"));
              }
              KernelDeletionVectors.of(
                      location,
                      dv.getChild(0).getString(row),
                      dv.getChild(1).getString(row),
                      dv.getChild(2).getLong(row),
                      path)
                  .file()
                  .ifPresent(file -> found.add(new Tombstone(file, ts, -1)));
            }
          }
        }
      }
    }
    return found;
  }

  private static Tombstone later(Tombstone a, Tombstone b) {
    return b.version() > a.version()
            || (b.version() == a.version() && b.removedAtMillis() > a.removedAtMillis())
        ? b
        : a;
  }

  /**
   * The absolute, unescaped path of a logged path, as kernel resolves {@code add.path}, in the
   * spelling storage listings use ({@link TableLocation#canonicalPath}).
   */
  static String resolve(TableLocation location, String logged) {
    return TableLocation.canonicalPath(kernelResolution(location, logged));
  }

  /** {@link #resolve} for many paths of one table, short-cut by {@link LogPaths}. */
  static LogPaths resolverFor(TableLocation location) {
    return LogPaths.resolvedBy(logged -> resolve(location, logged));
  }

  private static String kernelResolution(TableLocation location, String logged) {
    // The root as a path string: it may hold characters a URI must escape (a space).
    return new Path(new Path(location.uri()), new Path(URI.create(logged))).toString();
  }
}
