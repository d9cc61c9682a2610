package company.data.compactor.compact;

import static company.data.compactor.testing.Snapshots.file;
import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.inspect.PartitionHealth;
import company.data.compactor.inspect.TableHealth;
import company.data.compactor.inspect.TableInspector;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.DeletionVector;
import company.data.compactor.testing.Snapshots;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * Files with deletion vectors are planned like any other (the rewrite drops their deleted rows and
 * the outputs carry no vector); a partition whose vectors delete more than {@link
 * CompactionGate#DELETED_ROWS_RATIO_THRESHOLD} of its rows is fragmented whatever its file sizes,
 * and a file with a vector may be a bin of its own (a purge), as in Delta Lake's {@code OPTIMIZE}.
 */
class DeletionVectorPlanningTest {

  private static DataFile withDeletionVector(DataFile f, long deletedRows) {
    return withDeletionVector(f, deletedRows, List.of());
  }

  private static DataFile withDeletionVector(DataFile f, long deletedRows, List<String> zOrder) {
    return new DataFile(
        f.path(),
        f.logPath(),
        f.sizeBytes(),
        f.partition(),
        f.numRecords(),
        f.modificationTimeMillis(),
        true,
        null,
        zOrder,
        Optional.of(new DeletionVector(Optional.empty(), deletedRows)));
  }

  private static DataFile zOrdered(DataFile f) {
    return new DataFile(
        f.path(),
        f.logPath(),
        f.sizeBytes(),
        f.partition(),
        f.numRecords(),
        f.modificationTimeMillis(),
        false,
        null,
        List.of("id"));
  }

  private static CompactionOptions options(Layout layout) {
    return new CompactionOptions(
        100,
        40,
        300,
        300,
        PartitionFilter.all(),
        OptionalLong.empty(),
        layout,
        layout == Layout.Z_ORDER ? List.of("id") : List.of());
  }

  private static List<List<DataFile>> bins(CompactionPlan plan) {
    return plan.bins().stream().map(Bin::files).toList();
  }

  @Test
  void smallFilesWithDeletionVectors_areBinnedLikeOthers_andCountedAsPurged_inBothLayouts() {
    DataFile a = file("d", 10, 100);
    DataFile b = withDeletionVector(file("d", 10, 100), 2);
    DataFile c = file("d", 10, 100);
    DataFile d = withDeletionVector(file("e", 10, 100), 1);
    DataFile e = file("e", 10, 100);

    for (Layout layout : Layout.values()) {
      CompactionPlan plan =
          CompactionPlanner.plan(Snapshots.partitioned(5, List.of(a, b, c, d, e)), options(layout));

      assertThat(bins(plan)).as(layout.name()).isEqualTo(List.of(List.of(a, b, c), List.of(d, e)));
      assertThat(plan.deletionVectorsToPurge()).as(layout.name()).isEqualTo(2);
    }
  }

  @Test
  void aLargeFileMostlyDeleted_isABinOfItsOwn_evenInAPartitionBelowTheSmallFileGate() {
    DataFile big = withDeletionVector(file("d", 500, 100), 60);
    DataFile other = file("d", 500, 100);

    CompactionPlan plan =
        CompactionPlanner.plan(
            Snapshots.partitioned(3, List.of(big, other)), options(Layout.BIN_PACK));

    assertThat(plan.tableGatePassed()).as("no small file at all").isFalse();
    assertThat(bins(plan)).isEqualTo(List.of(List.of(big)));
    assertThat(plan.partitions().get(0).outcome()).isEqualTo(PartitionDecision.Outcome.COMPACT);
    assertThat(plan.deletionVectorsToPurge()).isEqualTo(1);
  }

  @Test
  void aFewDeletedRows_leaveALargeFileAndAHealthyPartitionAlone() {
    // 10 of 200 rows deleted in the partition: 5%, not above the threshold.
    DataFile big = withDeletionVector(file("d", 500, 100), 10);
    DataFile other = file("d", 500, 100);

    CompactionPlan plan =
        CompactionPlanner.plan(
            Snapshots.partitioned(3, List.of(big, other)), options(Layout.BIN_PACK));

    assertThat(plan.bins()).isEmpty();
    assertThat(plan.partitions().get(0).outcome()).isEqualTo(PartitionDecision.Outcome.BELOW_GATE);
  }

  @Test
  void aSingleFileBin_isKeptOnlyWhenItsFileHasADeletionVector() {
    // Partition d: the small file and the mostly deleted one do not fit one bin (300 bytes), so
    // each is a run of one: the small one is dropped, the one with a vector is purged alone.
    DataFile small = file("d", 10, 100);
    DataFile dv = withDeletionVector(file("d", 500, 100), 50);
    DataFile large = file("d", 500, 100);
    // Partition e: the small files are split by a large one: two runs of one, no bin.
    DataFile e1 = file("e", 10, 100);
    DataFile e2 = file("e", 500, 100);
    DataFile e3 = file("e", 10, 100);

    CompactionPlan plan =
        CompactionPlanner.plan(
            Snapshots.partitioned(3, List.of(small, dv, large, e1, e2, e3)),
            options(Layout.BIN_PACK));

    assertThat(bins(plan)).isEqualTo(List.of(List.of(dv)));
  }

  @Test
  void aZOrderedPartitionWithDeletionVectors_isRewrittenAgain() {
    DataFile a = zOrdered(file("d", 10, 100));
    DataFile b = withDeletionVector(file("d", 10, 100), 40, List.of("id"));

    CompactionPlan plan =
        CompactionPlanner.plan(Snapshots.partitioned(3, List.of(a, b)), options(Layout.Z_ORDER));

    assertThat(bins(plan)).isEqualTo(List.of(List.of(a, b)));
    CompactionPlan clean =
        CompactionPlanner.plan(
            Snapshots.partitioned(3, List.of(a, zOrdered(file("d", 10, 100)))),
            options(Layout.Z_ORDER));
    assertThat(clean.partitions().get(0).outcome())
        .isEqualTo(PartitionDecision.Outcome.ALREADY_CLUSTERED);
  }

  @Test
  void gate_namesTheDeletedRowsRule() {
    CompactionGate gate = new CompactionGate(options(Layout.BIN_PACK));

    assertThat(gate.hasManyDeletedRows(withDeletionVector(file("d", 500, 100), 6))).isTrue();
    assertThat(gate.hasManyDeletedRows(withDeletionVector(file("d", 500, 100), 5))).isFalse();
    assertThat(gate.hasManyDeletedRows(file("d", 500, 100))).isFalse();
    DataFile noStats =
        new DataFile(
            "file:/t/x",
            "x",
            500,
            file("d", 1, 1).partition(),
            OptionalLong.empty(),
            1,
            true,
            null,
            List.of(),
            Optional.of(new DeletionVector(Optional.empty(), 1)));
    assertThat(gate.hasManyDeletedRows(noStats)).as("no row count: rewrite to get stats").isTrue();
    assertThat(gate.isWorthRewriting(List.of(withDeletionVector(file("d", 10, 100), 1)))).isTrue();
    assertThat(gate.isWorthRewriting(List.of(file("d", 10, 100)))).isFalse();
  }

  @Test
  void inspect_countsLiveAndDeletedRows_perPartitionAndTable() {
    DataFile a = withDeletionVector(file("d", 10, 5), 2);
    DataFile b = file("d", 10, 7);
    DataFile c = file("e", 10, 8);

    TableHealth health =
        TableInspector.inspect(Snapshots.partitioned(1, List.of(a, b, c)), 100, 40.0);

    assertThat(health.totalRows()).isEqualTo(18L);
    assertThat(health.deletedRows()).isEqualTo(2);
    assertThat(health.deletedRowsRatio()).as("2 of 20").isEqualTo(0.1);
    assertThat(health.partitions())
        .extracting(PartitionHealth::deletedRows, PartitionHealth::deletedRowsRatio)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(2L, 0.1667),
            org.assertj.core.groups.Tuple.tuple(0L, 0.0));
    assertThat(a.liveRecords()).hasValue(3);
    DataFile undescribed =
        new DataFile("file:/t/x", "x", 10, a.partition(), OptionalLong.of(5), 1, true);
    assertThat(undescribed.liveRecords()).as("a vector we cannot see: unknown, not 5").isEmpty();
  }
}
