package company.data.compactor.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import company.data.compactor.storage.StoredObject;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class SweepPlannerTest {

  private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");
  private static final Duration TTL = Duration.ofMinutes(20);
  private static final Duration FLOOR = Duration.ofHours(168);
  private static final SweepPolicy POLICY = new SweepPolicy(TTL, FLOOR);
  private static final Path ROOT = Path.of("/work/.delta-compactor/scratch");
  private static final String TABLE = "s3://bkt/t";

  private static ScratchDirectory dir(String name, Instant modified) {
    return new ScratchDirectory(ROOT.resolve(name), modified);
  }

  private static StoredObject object(String key, Instant modified) {
    return new StoredObject(TABLE + "/" + key, 100, modified.toEpochMilli());
  }

  @Test
  void scratch_oneSecondOlderThanTheTtlIsStale_exactlyAtOrYoungerIsKept() {
    Instant cutoff = NOW.minus(TTL);
    SweepPlan plan =
        SweepPlanner.plan(
            List.of(
                dir("run-0f8fad5b-d9cb-469f-a165-70867728950e", cutoff.minusSeconds(1)),
                dir("run-7c9e6679-7425-40de-944b-e07fc1f90ae7", cutoff),
                dir("run-3f2504e0-4f89-11d3-9a0c-0305e82c3301", cutoff.plusSeconds(1))),
            List.of(),
            NOW,
            POLICY);

    assertThat(plan.scratchCutoff()).isEqualTo(Instant.parse("2026-11-30T11:40:00Z"));
    assertThat(plan.staleScratch())
        .extracting(ScratchDirectory::name)
        .containsExactly("run-0f8fad5b-d9cb-469f-a165-70867728950e");
    assertThat(plan.youngScratch()).isEqualTo(2);
  }

  @Test
  void temporaryObjects_oneSecondOlderThan168HoursAreStale_exactlyAtOrYoungerAreKept() {
    Instant cutoff = NOW.minus(FLOOR);
    SweepPlan plan =
        SweepPlanner.plan(
            List.of(),
            List.of(
                object(
                    "d=1/.compactor-tmp-0f8fad5b-d9cb-469f-a165-70867728950e-part-1.parquet",
                    cutoff.minusSeconds(1)),
                object(
                    "_delta_log/.compactor-tmp-7c9e6679-7425-40de-944b-e07fc1f90ae7-00000000000000000031.json",
                    cutoff),
                object(
                    ".compactor-tmp-3f2504e0-4f89-11d3-9a0c-0305e82c3301-_last_checkpoint",
                    cutoff.plusSeconds(1))),
            NOW,
            POLICY);

    assertThat(plan.temporaryObjectCutoff()).isEqualTo(Instant.parse("2026-11-23T12:00:00Z"));
    assertThat(plan.staleTemporaryObjects())
        .extracting(StoredObject::path)
        .containsExactly(
            "s3://bkt/t/d=1/.compactor-tmp-0f8fad5b-d9cb-469f-a165-70867728950e-part-1.parquet");
    assertThat(plan.staleTemporaryBytes()).isEqualTo(100);
    assertThat(plan.youngTemporaryObjects()).isEqualTo(2);
  }

  @Test
  void namesNotOurs_areLeftAlone_howeverOld() {
    Instant ancient = NOW.minus(Duration.ofDays(365));
    SweepPlan plan =
        SweepPlanner.plan(
            List.of(
                dir("run-", ancient),
                dir("run-logs", ancient),
                dir("probe-1", ancient),
                dir("running", ancient),
                dir("xrun-1", ancient)),
            List.of(
                object("d=1/part-00000.parquet", ancient),
                object("d=1/.part-00000.parquet.crc", ancient),
                object("_delta_log/00000000000000000000.json", ancient),
                object("d=1/.compactor-tmp-", ancient),
                object("d=1/compactor-tmp-x", ancient),
                object("d=1/_compactor-tmp-x", ancient),
                object(".compactor-tmp-dir/part-1.parquet", ancient),
                object("d=1/x.compactor-tmp-y", ancient),
                object("d=1/.compactor-tmp-user.parquet", ancient)),
            NOW,
            POLICY);

    assertThat(plan.staleScratch()).isEmpty();
    assertThat(plan.youngScratch()).isZero();
    assertThat(plan.staleTemporaryObjects()).isEmpty();
    assertThat(plan.youngTemporaryObjects()).isZero();
  }

  @Test
  void nothingFound_isAnEmptyPlan() {
    SweepPlan plan = SweepPlanner.plan(List.of(), List.of(), NOW, POLICY);

    assertThat(plan.staleScratch()).isEmpty();
    assertThat(plan.staleTemporaryObjects()).isEmpty();
    assertThat(plan.staleTemporaryBytes()).isZero();
  }

  @Test
  void negativeAges_areRefused() {
    assertThatThrownBy(() -> new SweepPolicy(Duration.ofSeconds(-1), FLOOR))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("sweep ages must not be negative: PT-1S, PT168H");
  }
}
