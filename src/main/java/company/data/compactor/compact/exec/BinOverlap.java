package company.data.compactor.compact.exec;

import company.data.compactor.compact.Bin;
import company.data.compactor.compact.PartitionResult;
import company.data.compactor.compact.exec.StageClock.Stage;
import company.data.compactor.error.CompactorException;
import company.data.compactor.storage.Scratch;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * Overlaps consecutive bins on object stores: while the caller rewrites and verifies bin n, one
 * thread downloads bin n+1's inputs (the prefetch), another uploads bin n-1's verified outputs (the
 * upload lane) and a third commits a partition once the uploads of its last bin are in (the commit
 * lane). A commit waits on the store's round trips, not on bandwidth, so the next bin's upload goes
 * on beside it. Transfers are bounded to one bin: at most one prefetched bin waits and one batch is
 * uploading, so scratch holds at most the inputs of two bins and the outputs of two. Each lane is
 * one thread and runs its work in the order it was handed over, so commits keep the plan's
 * partition order, and a commit starts only after every upload of its partition succeeded. After a
 * commit failed (an unknown outcome), no later commit runs: each is abandoned (its uploads deleted)
 * and the failure is thrown to the caller. On local storage ({@link Mode#SEQUENTIAL}) nothing runs
 * ahead: each bin is fetched when asked for and each batch and commit run on the caller's thread
 * when handed over, as one loop would.
 */
final class BinOverlap implements AutoCloseable {

  /** Whether transfers run beside the rewrite. */
  enum Mode {
    /** One bin after another on the caller's thread (local storage: inputs are read in place). */
    SEQUENTIAL,
    /** The next bin's download and the previous bins' uploads and commits beside the rewrite. */
    OVERLAPPED
  }

  /** A bin's inputs on local disk, under the bin's own scratch directory. */
  record Fetched(Bin bin, Path binDir, List<Path> inputs) {}

  /** One bin's uploads; on failure it deletes what its partition uploaded so far. */
  @FunctionalInterface
  interface Uploads {
    void run() throws IOException;
  }

  /** The commit of a partition whose uploads are all in. */
  interface Commit {
    /** Commits (or finds it fenced, or not to be attempted) and returns the partition's result. */
    PartitionResult run();

    /** Deletes the partition's uploads: an earlier commit failed, so this one will not run. */
    void abandon();
  }

  private final Mode mode;
  private final BinRunner runner;
  private final Scratch scratch;
  private final List<Bin> order;
  private final StageClock stages;
  private final ExecutorService prefetcher;
  private final ExecutorService lane;
  private final ExecutorService committer;
  private final Consumer<PartitionResult> ended;
  private Pending pending;
  private Future<Void> uploading;
  private final Deque<Future<Void>> commits = new ArrayDeque<>();
  private volatile boolean commitFailed;

  private record Pending(Bin bin, Path binDir, Future<List<Path>> inputs) {}

  /**
   * @param ended receives each partition's result as its commit ends (on the commit lane's thread
   *     on object stores), in the plan's order
   */
  BinOverlap(
      Mode mode,
      BinRunner runner,
      Scratch scratch,
      List<Bin> order,
      StageClock stages,
      Consumer<PartitionResult> ended) {
    this.mode = mode;
    this.runner = runner;
    this.scratch = scratch;
    this.order = List.copyOf(order);
    this.stages = stages;
    this.prefetcher =
        mode == Mode.OVERLAPPED ? Executors.newSingleThreadExecutor(named("prefetch")) : null;
    this.lane = mode == Mode.OVERLAPPED ? Executors.newSingleThreadExecutor(named("lane")) : null;
    this.committer =
        mode == Mode.OVERLAPPED ? Executors.newSingleThreadExecutor(named("commit")) : null;
    this.ended = ended;
  }

  private static java.util.concurrent.ThreadFactory named(String role) {
    return r -> {
      Thread t = new Thread(r, "compaction-" + role);
      t.setDaemon(true);
      return t;
    };
  }

  /**
   * {@code bin}'s inputs, downloaded ahead when it was the bin expected next (else now, the one
   * downloaded ahead deleted), then starts downloading the bin after it in the plan's order.
   *
   * @throws IOException the download's failure, at the point the bin is needed, as a loop would
   */
  Fetched take(Bin bin) throws IOException {
    Pending ready = pending != null && pending.bin() == bin ? pending : null;
    if (ready == null) {
      dropPending();
      ready = start(bin);
    }
    pending = null;
    int next = indexOf(bin) + 1;
    List<Path> inputs;
    try {
      inputs = get(ready.inputs());
    } catch (IOException | RuntimeException e) {
      Scratch.deleteTree(ready.binDir());
      throw e;
    }
    if (mode == Mode.OVERLAPPED && next > 0 && next < order.size()) {
      pending = start(order.get(next));
    }
    return new Fetched(bin, ready.binDir(), inputs);
  }

  private int indexOf(Bin bin) {
    for (int i = 0; i < order.size(); i++) {
      if (order.get(i) == bin) {
        return i;
      }
    }
    return -1;
  }

  private Pending start(Bin bin) throws IOException {
    Path binDir = scratch.newDirectory("bin-" + UUID.randomUUID());
    Callable<List<Path>> fetch =
        () -> {
          long t = System.nanoTime();
          try {
            return runner.fetch(bin, binDir.resolve("in"));
          } finally {
            stages.since(Stage.DOWNLOAD, t);
          }
        };
    Future<List<Path>> inputs =
        mode == Mode.OVERLAPPED ? prefetcher.submit(fetch) : completed(fetch);
    return new Pending(bin, binDir, inputs);
  }

  /** Waits for the bin downloaded ahead, if any, and deletes it: it will not be rewritten. */
  private void dropPending() throws IOException {
    if (pending == null) {
      return;
    }
    Pending dropped = pending;
    pending = null;
    try {
      get(dropped.inputs());
    } catch (IOException | RuntimeException e) {
      // Not needed any more: its failure does not matter, its files do.
    } finally {
      Scratch.deleteTree(dropped.binDir());
    }
  }

  /**
   * Waits for the batch uploading, if any, and throws a failure the lanes already met (an upload's,
   * or an ended commit's): called before a bin is handed over, so that the caller still owns the
   * bin (and may delete its partition's uploads) when this throws.
   *
   * @throws IOException that failure; a CompactorException likewise
   */
  void awaitTurn() throws IOException {
    awaitUploads();
    throwEndedCommitFailures();
  }

  /**
   * Hands a bin's {@code uploads} to the upload lane and, when the bin ends its partition, the
   * partition's {@code commit} to the commit lane, to run once these uploads are in; {@link
   * #awaitTurn()} must have returned first (one batch is uploading at most). In {@link
   * Mode#SEQUENTIAL} both run now, and their failures are thrown.
   *
   * @param commit null unless the bin is its partition's last
   */
  void handOver(Uploads uploads, Commit commit) throws IOException {
    if (uploading != null) {
      throw new IllegalStateException("a bin was handed over before the previous one's turn ended");
    }
    if (mode == Mode.SEQUENTIAL) {
      uploads.run();
      if (commit != null) {
        ended.accept(commit.run());
      }
      return;
    }
    Future<Void> uploaded =
        lane.submit(
            () -> {
              uploads.run();
              return null;
            });
    uploading = uploaded;
    if (commit != null) {
      commits.add(committer.submit(() -> commitAfter(uploaded, commit)));
    }
  }

  /**
   * The commit lane's work for one partition: nothing when its uploads failed (they deleted what
   * they had uploaded and the failure reaches the caller from {@link #awaitUploads()}), abandoned
   * after an earlier commit failed, else committed and its result passed on.
   */
  private Void commitAfter(Future<Void> uploaded, Commit commit) {
    try {
      uploaded.get();
    } catch (ExecutionException | CancellationException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      commit.abandon();
      return null;
    }
    if (commitFailed) {
      commit.abandon();
      return null;
    }
    try {
      ended.accept(commit.run());
      return null;
    } catch (RuntimeException | Error e) {
      commitFailed = true;
      throw e;
    }
  }

  /**
   * Waits for the batch uploading, if any.
   *
   * @throws IOException its failure; a CompactorException likewise
   */
  void awaitUploads() throws IOException {
    if (uploading == null) {
      return;
    }
    Future<Void> waiting = uploading;
    uploading = null;
    get(waiting);
  }

  /**
   * Waits for everything handed over: the uploads, then every commit, whose results have reached
   * {@code ended} when this returns.
   *
   * @throws IOException an upload's failure, else the first commit's; a CompactorException likewise
   */
  void awaitLane() throws IOException {
    Throwable failure = null;
    try {
      awaitUploads();
    } catch (IOException | RuntimeException e) {
      failure = e;
    }
    while (!commits.isEmpty()) {
      try {
        get(commits.poll());
      } catch (IOException | RuntimeException | Error e) {
        failure = failure == null ? e : failure;
      }
    }
    rethrow(failure);
  }

  /** Throws the failure of a commit that has already ended, dropping the ended ones. */
  private void throwEndedCommitFailures() throws IOException {
    while (!commits.isEmpty() && commits.peek().isDone()) {
      get(commits.poll());
    }
    if (commitFailed) {
      awaitLane();
    }
  }

  private static void rethrow(Throwable failure) throws IOException {
    if (failure == null) {
      return;
    }
    if (failure instanceof IOException io) {
      throw io;
    }
    if (failure instanceof RuntimeException re) {
      throw re;
    }
    throw (Error) failure;
  }

  /** Waits for the lanes without throwing (the caller is already failing). */
  void awaitLaneQuietly() {
    try {
      awaitLane();
    } catch (IOException | RuntimeException e) {
      // The caller's own failure is the one reported.
    }
  }

  /** Waits for everything still running beside the caller and deletes what was fetched ahead. */
  @Override
  public void close() throws IOException {
    try {
      awaitLaneQuietly();
      dropPending();
    } finally {
      if (prefetcher != null) {
        prefetcher.shutdownNow();
        lane.shutdownNow();
        committer.shutdownNow();
      }
    }
  }

  private static <T> Future<T> completed(Callable<T> work) {
    try {
      return CompletableFuture.completedFuture(work.call());
    } catch (Exception e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  private static <T> T get(Future<T> future) throws IOException {
    try {
      return future.get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      if (cause instanceof CompactorException ce) {
        throw ce;
      }
      if (cause instanceof RuntimeException re) {
        throw re;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new IOException(cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for a bin's transfer", e);
    }
  }
}
