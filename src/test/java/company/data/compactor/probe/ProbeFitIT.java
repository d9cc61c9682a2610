package company.data.compactor.probe;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.demo.DemoTable;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.PartitionValues;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.testing.ForwardingStorage;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On an object store whose reads are slow for the probe's budget (the S3 benchmark's case: the
 * warm-up took 645 ms of a 1 s share, and on the quick bench overran it), the warm-up reads one
 * round of {@code concurrency} files and the timed passes read the prefix of the sample that fits,
 * instead of skipping the measurement (issues 18, 21).
 */
class ProbeFitIT {

  private static final long GET_MS = 100;

  @TempDir Path work;

  /** The demo table read as from an object store: every GET takes {@value #GET_MS} ms. */
  private static final class SlowObjectStore extends ForwardingStorage {
    SlowObjectStore() {
      super(new LocalStorage());
    }

    @Override
    public Optional<Path> localFile(String path) {
      return Optional.empty();
    }

    @Override
    public InputStream openFrom(String path, long offset) throws IOException {
      try {
        Thread.sleep(GET_MS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted");
      }
      return super.openFrom(path, offset);
    }
  }

  @Test
  void aWarmUpOverTheWholeSampleWouldOverrunTheShare_oneRoundSizesThePrefixThatIsMeasured() {
    DemoSample demo = DemoSample.seed(work);
    TableSnapshot snapshot = demo.snapshot();
    List<PartitionValues> partitions = demo.partitions();
    // One GET at a time, 2 s floor, nothing planned: a 1 s share. A warm-up over the 30 files
    // would take ~3 s, overrun the share and leave nothing to measure (the quick S3 bench's case);
    // the warm-up reads one round (one file) and the timed passes read the prefix that fits.
    ProbeSettings settings =
        new ProbeSettings(
            ProbeSettings.DEFAULT_QUERY, 3, 3, 1, 64, 128L * 1024 * 1024, 0.001, 2_000);
    StorageReadProbe probe =
        new StorageReadProbe(new SlowObjectStore(), settings, work.resolve("probe"));

    ProbeResult result = probe.before(snapshot, partitions, 0, 0);

    assertThat(result.measured()).as(result.skipReason()).isTrue();
    assertThat(result.readMethod()).isEqualTo(ReadMethod.DOWNLOAD);
    assertThat(result.budgetMs()).isEqualTo(2_000);
    assertThat(result.files()).as("a prefix of the 30 files").isBetween(1, 29);
    List<DataFile> all = snapshot.activeFiles();
    ProbeSample sample =
        ProbeSample.select(all, partitions, 64, 128L * 1024 * 1024, Long.MAX_VALUE);
    ProbeSample prefix = sample.prefixWithin(result.bytes());
    assertThat(prefix.files()).hasSize(result.files());
    assertThat(prefix.bytes()).isEqualTo(result.bytes());
    assertThat(result.result())
        .as("the count over the prefix: 50 rows per file")
        .isEqualTo(String.valueOf(50L * result.files()));
    assertThat(result.runsMs()).isNotEmpty();
    assertThat(result.downloadedBytes())
        .as("the warm-up's one file, then each timed pass's prefix")
        .isEqualTo(sample.files().get(0).sizeBytes() + result.runsMs().size() * result.bytes());
  }

  @Test
  void theMeasurementAfter_makesAsManyTimedPassesAsTheOneBefore_evenWithBudgetLeft() {
    DemoSample demo = DemoSample.seed(work);
    LocalStorage local = demo.local();
    TableSnapshot snapshot = demo.snapshot();
    List<PartitionValues> partitions = demo.partitions();
    ProbeSettings settings =
        new ProbeSettings(
            ProbeSettings.DEFAULT_QUERY, 3, 3, 16, 64, 128L * 1024 * 1024, 10.0, 600_000);
    StorageReadProbe probe = new StorageReadProbe(local, settings, work.resolve("probe"));
    // The measurement before made one timed pass (its share ran out) of a 10-minute budget that
    // is nearly all left: the one after has the time for three.
    ProbeResult before =
        new ProbeResult(
            ProbeResult.Outcome.MEASURED,
            null,
            40.0,
            List.of(40.0),
            30,
            snapshot.activeFiles().stream().mapToLong(DataFile::sizeBytes).sum(),
            DemoTable.DATES,
            "1500",
            ReadMethod.IN_PLACE,
            600_000,
            100,
            0);

    ProbeResult after = probe.after(snapshot, partitions, before);

    assertThat(after.measured()).as(after.skipReason()).isTrue();
    assertThat(after.runsMs())
        .as("medians compared over the same number of passes, and no more reads than before")
        .hasSize(1);
  }
}
