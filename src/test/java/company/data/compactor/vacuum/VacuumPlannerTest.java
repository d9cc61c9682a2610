package company.data.compactor.vacuum;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.delta.LogHistory;
import company.data.compactor.delta.Tombstone;
import company.data.compactor.lease.TableLeaseStore;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.DeletionVector;
import company.data.compactor.model.PartitionValues;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSchema;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.StoredObject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The vacuum rules with a fixed clock: now is day 100, the 168-hour cutoff is day 93. */
class VacuumPlannerTest {

  private static final Instant NOW = Instant.parse("2026-11-30T00:00:00Z");
  private static final long OLD = NOW.minus(Duration.ofDays(10)).toEpochMilli();
  private static final long RECENT = NOW.minus(Duration.ofDays(2)).toEpochMilli();
  private static final String ROOT = "file:/t";
  private static final VacuumPlanner PLANNER = new VacuumPlanner(Clock.fixed(NOW, ZoneOffset.UTC));

  private static TableSnapshot snapshot(Map<String, String> properties, String... active) {
    List<DataFile> files =
        java.util.Arrays.stream(active)
            .map(
                p ->
                    new DataFile(
                        ROOT + "/" + p,
                        p,
                        10,
                        PartitionValues.none(),
                        OptionalLong.of(1),
                        OLD,
                        false))
            .toList();
    return new TableSnapshot(
        new TableLocation(ROOT),
        9,
        new TableSchema(List.of(), List.of()),
        files,
        properties,
        Set.of());
  }

  private static StoredObject object(String relative, long mtime) {
    return new StoredObject(ROOT + "/" + relative, 10, mtime);
  }

  private static LogHistory history(Set<String> readded, Tombstone... tombstones) {
    return new LogHistory(9, 0, OLD, -1, List.of(tombstones), readded);
  }

  private static Tombstone removed(String relative, long at) {
    return new Tombstone(ROOT + "/" + relative, at, 3);
  }

  private static List<String> candidates(VacuumPlan plan) {
    return plan.candidates().stream().map(c -> c.path().substring(ROOT.length() + 1)).toList();
  }

  @Test
  void lite_deletesOnlyExpiredTombstones_ofOldObjects() {
    VacuumPlan plan =
        PLANNER.plan(
            snapshot(Map.of(), "live.parquet"),
            history(
                Set.of(),
                removed("expired.parquet", OLD),
                removed("recent.parquet", RECENT),
                removed("young-object.parquet", OLD)),
            List.of(
                object("live.parquet", OLD),
                object("expired.parquet", OLD),
                object("recent.parquet", OLD),
                object("young-object.parquet", RECENT),
                object("untracked.parquet", OLD)),
            VacuumMode.LITE,
            168);

    assertThat(candidates(plan)).containsExactly("expired.parquet");
    assertThat(plan.candidates().get(0).reason()).isEqualTo("expired_tombstone");
    assertThat(plan.keptYoungObjects()).isEqualTo(1);
    assertThat(plan.keptUnexpiredTombstones()).as("recent.parquet").isEqualTo(1);
    assertThat(plan.cutoff()).isEqualTo(NOW.minus(Duration.ofHours(168)));
  }

  @Test
  void neverAnActiveFile_norOneAddedAgainAfterItsRemoval() {
    VacuumPlan plan =
        PLANNER.plan(
            snapshot(Map.of(), "back.parquet"),
            history(
                Set.of(ROOT + "/readded.parquet"),
                removed("back.parquet", OLD),
                removed("readded.parquet", OLD)),
            List.of(object("back.parquet", OLD), object("readded.parquet", OLD)),
            VacuumMode.FULL,
            168);

    assertThat(plan.candidates()).isEmpty();
  }

  @Test
  void full_addsUntrackedFilesOlderThanTheCutoff_andKeepsYoungOnes() {
    VacuumPlan plan =
        PLANNER.plan(
            snapshot(Map.of()),
            history(Set.of(), removed("recent.parquet", RECENT)),
            List.of(
                object("p=1/orphan-old.parquet", OLD),
                object("p=1/orphan-young.parquet", RECENT),
                object("recent.parquet", OLD)),
            VacuumMode.FULL,
            168);

    assertThat(candidates(plan)).containsExactly("p=1/orphan-old.parquet");
    assertThat(plan.candidates().get(0).reason()).isEqualTo("untracked");
    assertThat(plan.keptYoungObjects()).isEqualTo(1);
    assertThat(plan.keptUnexpiredTombstones())
        .as("recent.parquet is tombstoned, not untracked")
        .isEqualTo(1);
  }

  @Test
  void hiddenPaths_areSkipped_exceptChangeDataDeltaIndexAndPartitionDirectories() {
    List<String> none = List.of();
    List<String> year = List.of("_year");
    assertThat(VacuumPlanner.isHidden("_delta_log/00000000000000000000.json", year)).isTrue();
    assertThat(VacuumPlanner.isHidden("_tmp/part-0.parquet", none)).isTrue();
    assertThat(VacuumPlanner.isHidden(".part-0.parquet.crc", none)).isTrue();
    assertThat(VacuumPlanner.isHidden("p=1/_SUCCESS", List.of("p"))).isTrue();
    assertThat(VacuumPlanner.isHidden("p=1/.part-0.parquet.crc", List.of("p"))).isTrue();
    assertThat(VacuumPlanner.isHidden("p=1/q=2/.tmp/part-0.parquet", List.of("p", "q"))).isTrue();
    assertThat(VacuumPlanner.isHidden("p=1/part_0.parquet.x", List.of("p"))).isFalse();
    assertThat(VacuumPlanner.isHidden("_change_data/cdc-0.parquet", none)).isFalse();
    assertThat(VacuumPlanner.isHidden("_delta_index/x", none)).isFalse();
    assertThat(
            VacuumPlanner.isHidden(
                TableLeaseStore.DIRECTORY + "/lease-00000000000000000001.json", none))
        .as("the leases kept with the table")
        .isTrue();
    assertThat(VacuumPlanner.isHidden("p=1/_change_data/x", List.of("p")))
        .as("only at the top")
        .isTrue();
    assertThat(VacuumPlanner.isHidden("_year=2026/part-0.parquet", year)).isFalse();
    assertThat(VacuumPlanner.isHidden("_year=2026/part-0.parquet", none))
        .as("not a partition column")
        .isTrue();
    assertThat(VacuumPlanner.isHidden("_year=2026", year)).as("a file, not a directory").isTrue();
    assertThat(VacuumPlanner.isHidden("p=1/part-0.parquet", none)).isFalse();
    assertThat(VacuumPlanner.isHidden("_p%3Dq%25=1/x.parquet", List.of("_p=q%"))).isFalse();
    assertThat(VacuumPlanner.unescapeHive("a%3Db%2F%zz%4")).isEqualTo("a=b/%zz%4");

    VacuumPlan plan =
        PLANNER.plan(
            partitionedBy("_year"),
            history(Set.of()),
            List.of(
                object("_delta_log/00000000000000000000.json", OLD),
                object("_tmp/x.parquet", OLD),
                object("_year=2026/x.parquet", OLD)),
            VacuumMode.FULL,
            168);
    assertThat(candidates(plan)).containsExactly("_year=2026/x.parquet");
    assertThat(plan.keptHidden()).isEqualTo(2);
  }

  private static DataFile withDeletionVector(String relative, Optional<String> dvFile) {
    return new DataFile(
        ROOT + "/" + relative,
        relative,
        10,
        PartitionValues.none(),
        OptionalLong.of(3),
        OLD,
        true,
        null,
        List.of(),
        Optional.of(new DeletionVector(dvFile, 1)));
  }

  @Test
  void deletionVectorFilesOfActiveFiles_areLive_inBothModes_andOthersExpireWithTheirTombstones() {
    TableSnapshot snapshot =
        new TableSnapshot(
            new TableLocation(ROOT),
            9,
            new TableSchema(List.of(), List.of()),
            List.of(
                withDeletionVector("a.parquet", Optional.of(ROOT + "/ab/deletion_vector_live.bin")),
                withDeletionVector("b.parquet", Optional.empty()),
                withDeletionVector(
                    "c.parquet", Optional.of("file:/elsewhere/deletion_vector_outside.bin"))),
            Map.of(),
            Set.of());
    LogHistory history =
        history(
            Set.of(),
            removed("deletion_vector_expired.bin", OLD),
            removed("deletion_vector_recent.bin", RECENT));
    List<StoredObject> objects =
        List.of(
            object("a.parquet", OLD),
            object("b.parquet", OLD),
            object("c.parquet", OLD),
            object("ab/deletion_vector_live.bin", OLD),
            object("deletion_vector_expired.bin", OLD),
            object("deletion_vector_recent.bin", OLD));

    for (VacuumMode mode : VacuumMode.values()) {
      VacuumPlan plan = PLANNER.plan(snapshot, history, objects, mode, 168);
      assertThat(candidates(plan)).as(mode.name()).containsExactly("deletion_vector_expired.bin");
      assertThat(plan.keptUnexpiredTombstones()).as(mode.name()).isEqualTo(1);
    }
    assertThat(VacuumPlanner.liveFiles(snapshot))
        .containsExactlyInAnyOrder(
            ROOT + "/a.parquet",
            ROOT + "/b.parquet",
            ROOT + "/c.parquet",
            ROOT + "/ab/deletion_vector_live.bin",
            "file:/elsewhere/deletion_vector_outside.bin");
  }

  private static TableSnapshot partitionedBy(String... columns) {
    return new TableSnapshot(
        new TableLocation(ROOT),
        9,
        new TableSchema(List.of(), List.of(columns)),
        List.of(),
        Map.of(),
        Set.of());
  }

  @Test
  void full_neverDeletesHiddenPathsThatLookLikePartitions_onlyRealPartitionColumnsAtTheirDepth() {
    VacuumPlan plan =
        PLANNER.plan(
            partitionedBy("p"),
            history(Set.of()),
            List.of(
                object("_x=1/a.parquet", OLD),
                object(".foo=bar/a.parquet", OLD),
                object("_delta_log=1/a.parquet", OLD),
                object("p=1/_y=2/a.parquet", OLD),
                object("p=1/.tmp/a.parquet", OLD),
                object("p=1/_SUCCESS", OLD),
                object("_delta_log/00000000000000000000.json", OLD),
                object("p=1/orphan.parquet", OLD),
                object("_change_data/p=1/cdc-old.parquet", OLD)),
            VacuumMode.FULL,
            168);

    assertThat(candidates(plan))
        .containsExactlyInAnyOrder("p=1/orphan.parquet", "_change_data/p=1/cdc-old.parquet");
    assertThat(plan.keptHidden()).isEqualTo(7);
  }

  @Test
  void hiddenPartitionColumns_areVacuumed_atTheirDepth_comparingUnescapedNames() {
    VacuumPlan plan =
        PLANNER.plan(
            partitionedBy("_x", ".y", "_p=q"),
            history(Set.of()),
            List.of(
                object("_x=1/.y=2/_p%3Dq=3/a.parquet", OLD),
                object("_X=1/.y=2/_p%3Dq=3/a.parquet", OLD),
                object(".y=2/a.parquet", OLD),
                object("_x=1/_x=1/a.parquet", OLD),
                object("_x=1/.y=2/_p=q=3/a.parquet", OLD),
                object("_x=1/.y=2/_p%3Dq=3/_x=1/a.parquet", OLD),
                object("_change_data/_x=1/.y=2/_p%3Dq=3/cdc.parquet", OLD)),
            VacuumMode.FULL,
            168);

    assertThat(candidates(plan))
        .containsExactlyInAnyOrder(
            "_x=1/.y=2/_p%3Dq=3/a.parquet", "_change_data/_x=1/.y=2/_p%3Dq=3/cdc.parquet");
    assertThat(plan.keptHidden()).isEqualTo(5);
  }

  @Test
  void retention_isTheLongestOfFloorRequestAndTableProperty() {
    assertThat(Retention.effective(168, Map.of()))
        .isEqualTo(new Retention(Duration.ofHours(168), "floor"));
    assertThat(Retention.effective(200, Map.of()))
        .isEqualTo(new Retention(Duration.ofHours(200), "request"));
    assertThat(
            Retention.effective(
                200, Map.of("delta.deletedFileRetentionDuration", "interval 14 days")))
        .isEqualTo(new Retention(Duration.ofDays(14), "table_property"));
    assertThat(
            Retention.effective(
                168, Map.of("delta.deletedFileRetentionDuration", "interval 1 hours")))
        .as("a table property cannot lower the floor")
        .isEqualTo(new Retention(Duration.ofHours(168), "floor"));
    assertThat(Retention.effective(1, Map.of()).duration())
        .as("nor can a request")
        .isEqualTo(Duration.ofHours(168));
  }

  @Test
  void aTablePropertyRetention_keepsFilesTheRequestAloneWouldDelete() {
    VacuumPlan plan =
        PLANNER.plan(
            snapshot(Map.of("delta.deletedFileRetentionDuration", "interval 30 days")),
            history(Set.of(), removed("ten-days.parquet", OLD)),
            List.of(object("ten-days.parquet", OLD)),
            VacuumMode.LITE,
            168);

    assertThat(plan.candidates()).isEmpty();
    assertThat(plan.retention().source()).isEqualTo("table_property");
  }

  @Test
  void warns_whenFileRetentionIsShorterThanLogRetention() {
    VacuumPlan plan =
        PLANNER.plan(snapshot(Map.of()), history(Set.of()), List.of(), VacuumMode.LITE, 168);

    assertThat(plan.warnings())
        .singleElement()
        .asString()
        .contains("file retention 168 h is shorter than delta.logRetentionDuration (720 h)");
    assertThat(
            PLANNER
                .plan(
                    snapshot(Map.of("delta.logRetentionDuration", "interval 7 days")),
                    history(Set.of()),
                    List.of(),
                    VacuumMode.LITE,
                    168)
                .warnings())
        .isEmpty();
  }

  @Test
  void aLogRetentionThatDoesNotParse_isAWarning_notARefusal_andHugeOnesDoNotThrow() {
    assertThat(
            PLANNER
                .plan(
                    snapshot(Map.of("delta.logRetentionDuration", "interval 1 month")),
                    history(Set.of()),
                    List.of(),
                    VacuumMode.LITE,
                    168)
                .warnings())
        .containsExactly(
            "table property delta.logRetentionDuration = 'interval 1 month'"
                + " is not a Delta interval: vacuum ignores it, but Delta writers may refuse the table or clean its log on"
                + " their default of 30 days");
    assertThat(
            PLANNER
                .plan(
                    snapshot(
                        Map.of("delta.logRetentionDuration", "interval 99999999999999999999 days")),
                    history(Set.of()),
                    List.of(),
                    VacuumMode.LITE,
                    168)
                .warnings())
        .singleElement()
        .asString()
        .startsWith(
            "file retention 168 h is shorter than delta.logRetentionDuration (2562047788 h)");
  }

  @Test
  void aHugeFileRetention_keepsEverything_withoutAnException() {
    VacuumPlan plan =
        PLANNER.plan(
            snapshot(
                Map.of("delta.deletedFileRetentionDuration", "interval 99999999999999999999 days")),
            history(Set.of(), removed("ten-days.parquet", OLD)),
            List.of(object("ten-days.parquet", OLD), object("untracked.parquet", OLD)),
            VacuumMode.FULL,
            168);

    assertThat(plan.candidates()).isEmpty();
    assertThat(plan.retention()).isEqualTo(new Retention(Retention.LONGEST, "table_property"));
    assertThat(plan.keptUnexpiredTombstones()).isEqualTo(1);
  }
}
