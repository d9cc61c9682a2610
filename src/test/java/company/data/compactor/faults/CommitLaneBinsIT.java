package company.data.compactor.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import company.data.compactor.compact.Bin;
import company.data.compactor.compact.CompactionOptions;
import company.data.compactor.compact.CompactionPlan;
import company.data.compactor.compact.CompactionPlanner;
import company.data.compactor.compact.Layout;
import company.data.compactor.compact.PartitionFilter;
import company.data.compactor.compact.exec.CompactionExecutor;
import company.data.compactor.compact.exec.RewriteSettings;
import company.data.compactor.delta.kernel.KernelDeletionVectorLoader;
import company.data.compactor.delta.kernel.KernelRewriteCommitter;
import company.data.compactor.error.CompactorException;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.RetryPolicy;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.Storage;
import company.data.compactor.testing.FaultScenario;
import company.data.compactor.testing.ForwardingStorage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commit lane when a partition is rewritten in several bins: a partition's earlier bins are
 * uploaded before its commit is handed over, so a failure that reaches the caller between its bins
 * must still delete what those bins uploaded. The executor runs on S3 storage whose calls the test
 * holds back and refuses, so the order of events is the test's, not the scheduler's.
 */
class CommitLaneBinsIT {

  private static final String COMMIT_31 = "/_delta_log/00000000000000000031.json";

  @TempDir Path work;

  /** Bin-packing every demo file, at most {@code maxBinBytes} of inputs per bin. */
  private static CompactionOptions binsOf(long maxBinBytes) {
    return new CompactionOptions(
        64L << 20,
        1.0,
        128L << 20,
        maxBinBytes,
        PartitionFilter.all(),
        OptionalLong.empty(),
        Layout.BIN_PACK,
        List.of());
  }

  /** A plan cutting each of the demo table's partitions into two bins. */
  private static CompactionPlan twoBinsPerPartition(TableSnapshot snapshot) {
    long largestPartition =
        snapshot.activeFiles().stream()
            .collect(
                Collectors.groupingBy(
                    DataFile::partition, Collectors.summingLong(f -> f.sizeBytes())))
            .values()
            .stream()
            .mapToLong(Long::longValue)
            .max()
            .orElseThrow();
    CompactionPlan plan = CompactionPlanner.plan(snapshot, binsOf(largestPartition * 6 / 10));
    assertThat(plan.bins()).hasSize(6);
    assertThat(plan.bins().stream().map(Bin::partition).distinct()).hasSize(3);
    return plan;
  }

  private static String directoryOf(Bin bin) {
    String path = bin.files().get(0).path();
    return path.substring(0, path.lastIndexOf('/') + 1);
  }

  private static CompactionExecutor executor(Storage storage, Path scratch, int commitAttempts) {
    RetryPolicy retries =
        new RetryPolicy(
            commitAttempts,
            Duration.ofMillis(10),
            Duration.ofMillis(10),
            Duration.ofSeconds(5),
            Duration.ofSeconds(10));
    return new CompactionExecutor(
        storage,
        new KernelRewriteCommitter(storage, Clock.systemUTC(), retries),
        new KernelDeletionVectorLoader(storage),
        RewriteSettings.defaults(),
        scratch,
        Clock.systemUTC());
  }

  private static void await(CountDownLatch latch) throws IOException {
    try {
      if (!latch.await(60, TimeUnit.SECONDS)) {
        throw new IOException("the test's latch was never opened");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }

  /** How the first partition's commit PUT fails. */
  @FunctionalInterface
  private interface Refusal {
    void refuse() throws IOException;
  }

  /**
   * The table's storage, where the first partition's commit PUT waits for the second partition's
   * first upload and then fails as {@code refusal} says, and the second partition's second bin is
   * fetched only a second after that: the failure reaches the caller between the second partition's
   * bins.
   */
  private static Storage failingTheFirstCommitBetweenTheNextBins(
      FaultScenario table, CompactionPlan plan, Refusal refusal) {
    String secondPartition = directoryOf(plan.bins().get(2));
    String secondPartitionsSecondBin = plan.bins().get(3).files().get(0).path();
    CountDownLatch secondPartitionUploaded = new CountDownLatch(1);
    CountDownLatch commitRefused = new CountDownLatch(1);
    return new ForwardingStorage(table.storage()) {
      @Override
      public void publishFile(Path local, String path) throws IOException {
        table.storage().publishFile(local, path);
        if (path.startsWith(secondPartition)) {
          secondPartitionUploaded.countDown();
        }
      }

      @Override
      public boolean putIfAbsent(String path, byte[] content) throws IOException {
        if (path.endsWith(COMMIT_31)) {
          await(secondPartitionUploaded);
          commitRefused.countDown();
          refusal.refuse();
        }
        return super.putIfAbsent(path, content);
      }

      @Override
      public InputStream openFrom(String path, long offset) throws IOException {
        if (path.equals(secondPartitionsSecondBin)) {
          await(commitRefused);
          pause(1000);
        }
        return super.openFrom(path, offset);
      }
    };
  }

  @Test
  void aCommitFailingBetweenTheNextPartitionsBins_deletesWhatItsFirstBinUploaded()
      throws Exception {
    try (FaultScenario table = FaultScenario.fresh(work)) {
      TableSnapshot before = table.snapshot();
      CompactionPlan plan = twoBinsPerPartition(before);
      Storage storage =
          failingTheFirstCommitBetweenTheNextBins(
              table,
              plan,
              () -> {
                throw new IOException("injected: the commit's PUT failed");
              });

      CompactorException e =
          catchThrowableOfType(
              CompactorException.class,
              () -> executor(storage, work.resolve("scratch"), 1).execute(plan, before));

      assertThat(e)
          .hasMessageContaining("The OPTIMIZE commit of " + table.uri() + " was not written");
      assertThat(table.snapshot().version()).isEqualTo(30);
      assertThat(table.orphans())
          .as("only the failed commit's own files are kept (its write may still land)")
          .hasSize(2)
          .allSatisfy(p -> assertThat(p).startsWith(directoryOf(plan.bins().get(0))));
      assertThat(table.rowsAndDistinctIds())
          .containsExactly(FaultScenario.ROWS, FaultScenario.ROWS);
    }
  }

  @Test
  void anErrorInTheCommitLane_betweenTheNextPartitionsBins_reachesTheCaller_leavingOnlyItsFiles()
      throws Exception {
    try (FaultScenario table = FaultScenario.fresh(work)) {
      TableSnapshot before = table.snapshot();
      CompactionPlan plan = twoBinsPerPartition(before);
      Storage storage =
          failingTheFirstCommitBetweenTheNextBins(
              table,
              plan,
              () -> {
                throw new AssertionError("injected: a bug in the commit");
              });

      Throwable e =
          org.assertj.core.api.Assertions.catchThrowable(
              () -> executor(storage, work.resolve("scratch"), 1).execute(plan, before));

      assertThat(e).hasStackTraceContaining("injected: a bug in the commit");
      assertThat(table.snapshot().version()).isEqualTo(30);
      assertThat(table.orphans())
          .as("only the failed commit's own files are kept (its write may still land)")
          .allSatisfy(p -> assertThat(p).startsWith(directoryOf(plan.bins().get(0))));
      assertThat(table.rowsAndDistinctIds())
          .containsExactly(FaultScenario.ROWS, FaultScenario.ROWS);
      assertThat(
              Thread.getAllStackTraces().keySet().stream()
                  .filter(t -> t.getName().startsWith("compaction-") && t.isAlive()))
          .as("the lanes' threads are gone")
          .isEmpty();
    }
  }

  private static void pause(long millis) throws IOException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }
}
