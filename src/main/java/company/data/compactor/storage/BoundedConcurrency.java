package company.data.compactor.storage;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs storage reads at most {@code concurrency} at a time and hands the results back in the order
 * of the inputs, as a reader that fetches many objects at once does (delta-rs reads log commits
 * this way; DuckDB and Spark read data files this way). Object stores answer one request in tens of
 * milliseconds whatever its size, so reading many small objects one after another costs their count
 * times that latency.
 */
public final class BoundedConcurrency {

  /** Below this many items the reads run on the caller's thread: a pool would cost more. */
  public static final int SEQUENTIAL_BELOW = 4;

  private static final AtomicInteger THREADS = new AtomicInteger();

  private BoundedConcurrency() {}

  /** One read that may fail with an {@link IOException}. */
  @FunctionalInterface
  public interface IoFunction<T, R> {
    /** Reads what {@code item} names. */
    R apply(T item) throws IOException;
  }

  /**
   * {@code read} applied to every item, at most {@code concurrency} at once, results in the order
   * of {@code items}. The first failure (in input order) is thrown after the reads still running
   * were cancelled; an {@link UncheckedIOException} is unwrapped to its cause.
   *
   * @throws IOException the first read's failure
   * @throws IllegalArgumentException when {@code concurrency < 1}
   */
  public static <T, R> List<R> mapInOrder(List<T> items, int concurrency, IoFunction<T, R> read)
      throws IOException {
    if (concurrency < 1) {
      throw new IllegalArgumentException("concurrency must be >= 1, got " + concurrency);
    }
    if (concurrency == 1 || items.size() < SEQUENTIAL_BELOW) {
      List<R> results = new ArrayList<>(items.size());
      for (T item : items) {
        results.add(read.apply(item));
      }
      return results;
    }
    ExecutorService pool =
        Executors.newFixedThreadPool(
            Math.min(concurrency, items.size()),
            r -> {
              Thread t = new Thread(r, "storage-read-" + THREADS.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    try {
      List<Future<R>> futures = new ArrayList<>(items.size());
      for (T item : items) {
        futures.add(pool.submit(() -> read.apply(item)));
      }
      List<R> results = new ArrayList<>(items.size());
      for (Future<R> future : futures) {
        results.add(await(future));
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }

  private static <R> R await(Future<R> future) throws IOException {
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while reading from storage");
    } catch (CancellationException e) {
      throw new InterruptedIOException("a storage read was cancelled");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof UncheckedIOException unchecked) {
        throw unchecked.getCause();
      }
      if (cause instanceof IOException io) {
        throw io;
      }
      if (cause instanceof RuntimeException runtime) {
        throw runtime;
      }
      if (cause instanceof Error error) {
        throw error;
      }
      throw new IOException(cause);
    }
  }
}
