package company.data.compactor.compact;

import static company.data.compactor.testing.Snapshots.file;
import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.inspect.TableInspector;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.DeletionVector;
import company.data.compactor.testing.Snapshots;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * While the rewrite cannot apply deletion vectors, the plan leaves files that carry one out of its
 * bins (and counts them), so {@code run} never meets a file it must refuse; {@code inspect} counts
 * the rows readers see.
 */
class DeletionVectorPlanningTest {

  private static DataFile withDeletionVector(DataFile f, long deletedRows) {
    return new DataFile(
        f.path(),
        f.logPath(),
        f.sizeBytes(),
        f.partition(),
        f.numRecords(),
        f.modificationTimeMillis(),
        true,
        null,
        List.of(),
        Optional.of(new DeletionVector(Optional.empty(), deletedRows)));
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

  @Test
  void filesWithDeletionVectors_areLeftOutOfBins_andCounted_inBothLayouts() {
    DataFile a = file("d", 10, 5);
    DataFile b = withDeletionVector(file("d", 10, 5), 2);
    DataFile c = file("d", 10, 5);
    DataFile d = withDeletionVector(file("e", 10, 5), 1);
    DataFile e = file("e", 10, 5);

    for (Layout layout : Layout.values()) {
      CompactionPlan plan =
          CompactionPlanner.plan(Snapshots.partitioned(5, List.of(a, b, c, d, e)), options(layout));

      // Z-order rewrites every file of a gated partition, so e (alone in it now) is a group too.
      assertThat(plan.bins().stream().map(Bin::files).toList())
          .as(layout.name())
          .isEqualTo(
              layout == Layout.Z_ORDER
                  ? List.of(List.of(a, c), List.of(e))
                  : List.of(List.of(a, c)));
      assertThat(plan.filesWithDeletionVectors()).as(layout.name()).isEqualTo(2);
    }
  }

  @Test
  void inspect_subtractsEachDeletionVectorsCardinality_fromTheRowCount() {
    DataFile a = withDeletionVector(file("d", 10, 5), 2);
    DataFile b = file("d", 10, 7);

    assertThat(
            TableInspector.inspect(Snapshots.partitioned(1, List.of(a, b)), 100, 40.0).totalRows())
        .isEqualTo(10L);
    assertThat(a.liveRecords()).hasValue(3);
    DataFile undescribed =
        new DataFile("file:/t/x", "x", 10, a.partition(), OptionalLong.of(5), 1, true);
    assertThat(undescribed.liveRecords()).as("a vector we cannot see: unknown, not 5").isEmpty();
  }
}
