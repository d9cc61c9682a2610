package company.data.compactor.compact.exec;

import company.data.compactor.compact.Bin;
import company.data.compactor.compact.PartitionResult;
import company.data.compactor.compact.exec.StageClock.Stage;
import company.data.compactor.error.CompactorException;
import company.data.compactor.storage.Scratch;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Overlaps consecutive bins on object stores: while the caller rewrites and verifies bin n, one
 * thread downloads bin n+1's inputs (the prefetch) and another uploads bin n-1's verified outputs
 * and commits its partition when it was the partition's last (the lane). Both are bounded to one
 * bin: there is at most one prefetched bin waiting and one batch in the lane, so scratch holds at
 * most the inputs of two bins and the outputs of two. The lane is one thread and runs its batches
 * in the order they were handed over, so commits keep the plan's partition order. On local storage
 * ({@link Mode#SEQUENTIAL}) nothing runs ahead: each bin is fetched when asked for and each batch
 * runs on the caller's thread when handed over, as one loop would.
 */
final class BinOverlap implements AutoCloseable {

  /** Whether transfers run beside the rewrite. */
  enum Mode {
    /** One bin after another on the caller's thread (local storage: inputs are read in place). */
    SEQUENTIAL,
    /** The next bin's download and the previous bin's upload beside the rewrite (object stores). */
    OVERLAPPED
  }

  /** A bin's inputs on local disk, under the bin's own scratch directory. */
  record Fetched(Bin bin, Path binDir, List<Path> inputs) {}

  /** Work the lane does for one bin: uploads, and the partition's commit after its last bin. */
  @FunctionalInterface
  interface Batch {
    /** The partition's result when this batch ended it (committed, fenced), else empty. */
    Optional<PartitionResult> run() throws IOException;
  }

  private final Mode mode;
  private final BinRunner runner;
  private final Scratch scratch;
  private final List<Bin> order;
  private final StageClock stages;
  private final ExecutorService prefetcher;
  private final ExecutorService lane;
  private Pending pending;
  private Future<Optional<PartitionResult>> inFlight;

  private record Pending(Bin bin, Path binDir, Future<List<Path>> inputs) {}

  BinOverlap(Mode mode, BinRunner runner, Scratch scratch, List<Bin> order, StageClock stages) {
    this.mode = mode;
    this.runner = runner;
    this.scratch = scratch;
    this.order = List.copyOf(order);
    this.stages = stages;
    this.prefetcher =
        mode == Mode.OVERLAPPED ? Executors.newSingleThreadExecutor(named("prefetch")) : null;
    this.lane = mode == Mode.OVERLAPPED ? Executors.newSingleThreadExecutor(named("lane")) : null;
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
   * Hands {@code batch} to the lane, after waiting for the batch before it (so one is in flight at
   * most; callers wait for it themselves first, with {@link #awaitLane()}, to see what it ended).
   * In {@link Mode#SEQUENTIAL} the batch runs now and its result is returned; otherwise empty, and
   * the result comes from a later {@link #awaitLane()}.
   *
   * @throws IOException a batch's failure (an upload); a CompactorException likewise
   */
  Optional<PartitionResult> handOver(Batch batch) throws IOException {
    Optional<PartitionResult> previous = awaitLane();
    if (previous.isPresent()) {
      throw new IllegalStateException(
          "a partition's result was not collected before the next batch");
    }
    if (mode == Mode.SEQUENTIAL) {
      return batch.run();
    }
    inFlight = lane.submit(batch::run);
    return Optional.empty();
  }

  /**
   * Waits for the batch in the lane, if any, and returns the partition result it ended with.
   *
   * @throws IOException its failure (an upload); a CompactorException likewise
   */
  Optional<PartitionResult> awaitLane() throws IOException {
    if (inFlight == null) {
      return Optional.empty();
    }
    Future<Optional<PartitionResult>> waiting = inFlight;
    inFlight = null;
    return get(waiting);
  }

  /** Waits for the lane without throwing (the caller is already failing). */
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
