package company.data.compactor.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.model.TableLocation;
import company.data.compactor.storage.Storage;
import company.data.compactor.storage.StoredObject;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The sweep of our temporary objects in a table, on real storage: the objects' own modification
 * times as storage lists them, the clock set one second either side of the 168-hour cutoff.
 * Subclasses supply the storage (local disk, S3 through S3Proxy).
 */
abstract class TemporaryObjectSweepContract {

  private static final Duration FLOOR = Duration.ofHours(168);

  /** The storage under test. */
  protected abstract Storage storage();

  /** An empty directory (prefix) to use as the table root, without a trailing slash. */
  protected abstract String root();

  /** An empty local directory to use as the scratch root. */
  protected abstract Path scratchRoot();

  private void write(String key) throws Exception {
    try (OutputStream out = storage().create(root() + "/" + key)) {
      out.write(key.getBytes(StandardCharsets.UTF_8));
    }
  }

  private SweepResult sweepAt(Instant now) {
    return new Sweeper(
            storage(),
            List.of(scratchRoot()),
            new SweepPolicy(Duration.ofMinutes(20), FLOOR),
            Clock.fixed(now, ZoneOffset.UTC))
        .sweep(new TableLocation(root()));
  }

  private List<String> keys() throws Exception {
    return storage().listRecursively(root()).stream()
        .map(o -> o.path().substring(root().length() + 1))
        .toList();
  }

  @Test
  void ourTemporaryObjects_goOneSecondAfterTheFloor_notAtIt_andOtherNamesStay() throws Exception {
    List<String> ours =
        List.of(
            "d=1/.compactor-tmp-0f8fad5b-d9cb-469f-a165-70867728950e-part-1.parquet",
            "_delta_log/.compactor-tmp-7c9e6679-7425-40de-944b-e07fc1f90ae7-00000000000000000031.json",
            ".compactor-tmp-3f2504e0-4f89-11d3-9a0c-0305e82c3301-_last_checkpoint");
    List<String> notOurs =
        List.of(
            "d=1/part-1.parquet",
            "d=1/.part-1.parquet.crc",
            "_delta_log/00000000000000000000.json",
            "_delta_log/.tmp-00000000000000000001.json",
            "d=1/compactor-tmp-1",
            "d=1/.compactor-tmp-user.parquet");
    for (String key : ours) {
      write(key);
    }
    for (String key : notOurs) {
      write(key);
    }
    long newest =
        storage().listRecursively(root()).stream()
            .mapToLong(StoredObject::modificationTimeMillis)
            .max()
            .orElseThrow();
    long oldest =
        storage().listRecursively(root()).stream()
            .mapToLong(StoredObject::modificationTimeMillis)
            .min()
            .orElseThrow();
    Instant oldestAtCutoff = Instant.ofEpochMilli(oldest).plus(FLOOR);
    Instant newestPastCutoff = Instant.ofEpochMilli(newest).plus(FLOOR).plusSeconds(1);

    SweepResult early = sweepAt(oldestAtCutoff.minusSeconds(1));
    SweepResult exact = sweepAt(oldestAtCutoff);

    assertThat(early.temporaryObjectsSwept()).isZero();
    assertThat(early.temporaryObjectsKeptYoung()).isEqualTo(3);
    assertThat(exact.temporaryObjectsSwept()).as("at the cutoff is not older").isZero();
    assertThat(keys()).hasSize(9);

    SweepResult late = sweepAt(newestPastCutoff);

    assertThat(late.failure()).isEmpty();
    assertThat(late.temporaryObjectsSwept()).isEqualTo(3);
    assertThat(late.temporaryObjectBytesSwept())
        .isEqualTo(ours.stream().mapToLong(k -> k.getBytes(StandardCharsets.UTF_8).length).sum());
    assertThat(late.temporaryObjectsKeptYoung()).isZero();
    assertThat(late.temporaryObjectCutoff()).isEqualTo(newestPastCutoff.minus(FLOOR));
    assertThat(keys()).containsExactlyInAnyOrderElementsOf(notOurs);
  }

  @Test
  void sweepAndList_handsBackTheTablesFiles_lessTheTemporaryObjectsItDeleted() throws Exception {
    String stale = "d=1/.compactor-tmp-0f8fad5b-d9cb-469f-a165-70867728950e-part-1.parquet";
    List<String> others =
        List.of("d=1/part-1.parquet", "d=1/part-2.parquet", "_delta_log/00000000000000000000.json");
    write(stale);
    for (String key : others) {
      write(key);
    }
    long newest =
        storage().listRecursively(root()).stream()
            .mapToLong(StoredObject::modificationTimeMillis)
            .max()
            .orElseThrow();
    Sweeper sweeper =
        new Sweeper(
            storage(),
            List.of(scratchRoot()),
            new SweepPolicy(Duration.ofMinutes(20), FLOOR),
            Clock.fixed(Instant.ofEpochMilli(newest).plus(FLOOR).plusSeconds(1), ZoneOffset.UTC));

    Sweeper.Listed listed = sweeper.sweepAndList(new TableLocation(root()));

    assertThat(listed.result().temporaryObjectsSwept()).isEqualTo(1);
    assertThat(keys()).containsExactlyInAnyOrderElementsOf(others);
    assertThat(listed.tableFiles())
        .as("what a vacuum that follows would see: the files still there")
        .extracting(o -> o.path().substring(root().length() + 1))
        .containsExactlyInAnyOrderElementsOf(others);
  }

  @Test
  void sweepAndList_beforeTheCutoff_handsBackEveryFile() throws Exception {
    String young = "d=1/.compactor-tmp-0f8fad5b-d9cb-469f-a165-70867728950e-part-1.parquet";
    write(young);
    write("d=1/part-1.parquet");
    Sweeper sweeper =
        new Sweeper(
            storage(),
            List.of(scratchRoot()),
            new SweepPolicy(Duration.ofMinutes(20), FLOOR),
            Clock.systemUTC());

    Sweeper.Listed listed = sweeper.sweepAndList(new TableLocation(root()));

    assertThat(listed.result().temporaryObjectsKeptYoung()).isEqualTo(1);
    assertThat(listed.tableFiles())
        .extracting(o -> o.path().substring(root().length() + 1))
        .containsExactlyInAnyOrder(young, "d=1/part-1.parquet");
  }

  @Test
  void aMissingTable_sweepsNothing_andDoesNotFail() {
    SweepResult result = sweepAt(Instant.now().plus(Duration.ofDays(30)));

    assertThat(result.failure()).isEmpty();
    assertThat(result.temporaryObjectsSwept()).isZero();
    assertThat(result.scratchDirsSwept()).isZero();
  }
}
