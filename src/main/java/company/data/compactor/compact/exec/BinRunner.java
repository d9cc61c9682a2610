package company.data.compactor.compact.exec;

import company.data.compactor.compact.Bin;
import company.data.compactor.compact.CompactionPlan;
import company.data.compactor.compact.Layout;
import company.data.compactor.delta.NewDataFile;
import company.data.compactor.error.Errors;
import company.data.compactor.model.PartitionValues;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.Scratch;
import company.data.compactor.storage.Storage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The runner role of a compaction: fetches a bin's inputs to local files, rewrites them with the
 * {@link BinRewriter}, names each output's add action (under the table root, in the directory its
 * partition values name) and uploads outputs once they are verified. It neither verifies nor
 * commits.
 */
final class BinRunner {

  /** Concurrent input downloads from object stores. */
  static final int PARALLEL_DOWNLOADS = 16;

  /**
   * A written file and the add action that will describe it.
   *
   * @param written the local file and its stats
   * @param file its add action: path in the table, partition values, size, stats, tags
   */
  record Output(DuckDbRewriter.Written written, NewDataFile file) {}

  private final Storage storage;
  private final BinRewriter rewriter;
  private final RewriteSettings settings;
  private final Clock clock;

  BinRunner(Storage storage, BinRewriter rewriter, RewriteSettings settings, Clock clock) {
    this.storage = storage;
    this.rewriter = rewriter;
    this.settings = settings;
    this.clock = clock;
  }

  /**
   * Local files of the bin's inputs, in the bin's order: in place on local disk; on object stores
   * downloaded in parallel ({@value #PARALLEL_DOWNLOADS} at a time) into {@code inDir}, which
   * bounds scratch use by the bin size.
   */
  List<Path> fetch(Bin bin, Path inDir) throws IOException {
    List<String> paths = bin.files().stream().map(f -> f.path()).toList();
    if (storage.localFile(paths.get(0)).isPresent()) {
      List<Path> local = new ArrayList<>();
      for (String path : paths) {
        local.add(storage.localFile(path).orElseThrow());
      }
      return local;
    }
    Files.createDirectories(inDir);
    ExecutorService pool = Executors.newFixedThreadPool(Math.min(PARALLEL_DOWNLOADS, paths.size()));
    try {
      List<Future<Path>> downloads = new ArrayList<>();
      for (int i = 0; i < paths.size(); i++) {
        String path = paths.get(i);
        String name = "input-" + i + ".parquet";
        downloads.add(pool.submit(() -> Scratch.localCopy(storage, path, inDir, name)));
      }
      List<Path> local = new ArrayList<>();
      for (Future<Path> download : downloads) {
        local.add(download.get());
      }
      return local;
    } catch (ExecutionException e) {
      throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while downloading inputs", e);
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * Rewrites the rows readers see in {@code inputs} (without those {@code deleted} names) into
   * {@code outDir} as the plan asks (bin-packed or Z-ordered).
   */
  List<Output> rewrite(
      CompactionPlan plan,
      TableSnapshot snapshot,
      Bin bin,
      List<Path> inputs,
      DeletedRows deleted,
      Path outDir)
      throws SQLException, IOException {
    List<DuckDbRewriter.Written> written =
        rewriter.rewrite(
            snapshot.location(),
            snapshot.schema(),
            snapshot.properties(),
            inputs,
            deleted,
            outDir,
            plan.options().targetFileSizeBytes(),
            settings.compression(),
            plan.options().layout() == Layout.Z_ORDER ? plan.options().zOrderColumns() : List.of());
    Map<String, String> tags = CommitParameters.tags(plan);
    List<Output> outputs = new ArrayList<>();
    for (DuckDbRewriter.Written file : written) {
      outputs.add(new Output(file, addAction(snapshot, bin.partition(), file, tags)));
    }
    return outputs;
  }

  /** The longest file or directory name most file systems take (ext4, XFS, APFS: 255 bytes). */
  static final int MAX_NAME_BYTES = 255;

  /** The longest S3 object key, in UTF-8 bytes. */
  static final int MAX_KEY_BYTES = 1024;

  /** Room kept in a key for an output's own name ({@code part-<uuid>.<codec>.parquet}). */
  static final int OUTPUT_NAME_ROOM = 64;

  /**
   * Where a partition's outputs go, relative to the root: {@link PartitionValues#directory()}, as
   * Spark and delta-rs lay partitions out, unless a segment of it is longer than a file name may be
   * or the key would exceed S3's limit (a long partition value); then the table root, which readers
   * take as readily, since they read partition values from the log, never from paths.
   */
  static String outputDirectory(TableLocation location, PartitionValues partition) {
    String directory = partition.directory();
    for (String segment : directory.split("/")) {
      if (segment.getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
        return "";
      }
    }
    int keyBytes =
        (location.key() + "/" + directory).getBytes(StandardCharsets.UTF_8).length
            + OUTPUT_NAME_ROOM;
    return keyBytes > MAX_KEY_BYTES ? "" : directory;
  }

  /**
   * Refuses, before anything is written, a partition whose output directory really is outside the
   * table root (a symbolic link on local disk; never on S3).
   *
   * @throws company.data.compactor.error.CompactorException naming the directory and where it leads
   */
  void refuseOutputOutsideRoot(TableLocation location, PartitionValues partition)
      throws IOException {
    String relative = outputDirectory(location, partition);
    String directory = relative.isEmpty() ? location.uri() : location.child(relative);
    String realRoot = storage.realPath(location.uri());
    // Resolved through a child name so the directory itself, when it is a link, is followed.
    String realChild = storage.realPath(directory + "/output.parquet");
    if (!new TableLocation(TableLocation.canonicalPath(realRoot)).contains(realChild)) {
      throw Errors.outputOutsideRoot(
          location,
          partition.label(),
          directory,
          realChild.substring(0, realChild.lastIndexOf('/')));
    }
  }

  /**
   * Uploads a verified output to its place in the table, after checking again that its directory is
   * still inside the root (it may have become a link since the run started). The local output is
   * consumed.
   */
  void upload(TableLocation location, Output output) {
    NewDataFile file = output.file();
    try {
      refuseOutputOutsideRoot(location, file.partition());
    } catch (IOException e) {
      throw Errors.operationFailed("resolving the real directory of " + file.path(), e);
    }
    try {
      // Moved into place on local disk, uploaded straight from the file on S3: never copied
      // through another local buffer first.
      storage.publishFile(output.written().path(), file.path());
    } catch (IOException e) {
      // Named apart from the rewrite: the data was rewritten and verified; storage refused it.
      throw Errors.operationFailed(
          "uploading rewritten file "
              + file.path()
              + " of partition "
              + file.partition().label()
              + " (nothing of this partition was committed; its files uploaded so far are deleted)",
          e);
    }
  }

  /**
   * The add action of a written file: under the table root, in the directory {@link
   * PartitionValues#directory()} names (as Spark and delta-rs lay partitions out), whatever
   * directories the inputs were in; the log path is that path URI-encoded.
   */
  private NewDataFile addAction(
      TableSnapshot snapshot,
      PartitionValues partition,
      DuckDbRewriter.Written written,
      Map<String, String> tags) {
    String name =
        written
            .path()
            .getFileName()
            .toString()
            .replace(
                ".parquet", "." + settings.compression().toLowerCase(Locale.ROOT) + ".parquet");
    String directory = outputDirectory(snapshot.location(), partition);
    String relative = directory.isEmpty() ? name : directory + "/" + name;
    return new NewDataFile(
        snapshot.location().child(relative),
        LogPaths.encode(relative),
        written.sizeBytes(),
        partition,
        written.statsJson(),
        clock.millis(),
        tags);
  }
}
