package company.data.compactor.inspect;

import static company.data.compactor.testing.Snapshots.file;
import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.model.ByteSizes;
import company.data.compactor.model.MergeRule;
import company.data.compactor.testing.Snapshots;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class TableInspectorTest {

  private static final long MB = ByteSizes.BYTES_PER_MB;

  @Test
  void inspect_countsSmallFilesPerPartitionAndOverall() {
    TableHealth health =
        TableInspector.inspect(
            Snapshots.partitioned(
                7,
                List.of(
                    file("2026-10-17", 1 * MB, 10),
                    file("2026-10-17", 3 * MB, 20),
                    file("2026-10-18", 10 * MB, 30),
                    file("2026-10-17", 4 * MB, 40))),
            4 * MB,
            40.0);

    assertThat(health.tableVersion()).isEqualTo(7);
    assertThat(health.partitions())
        .containsExactly(
            new PartitionHealth(
                "event_date=2026-10-17",
                java.util.Map.of("event_date", "2026-10-17"),
                3,
                2,
                66.67,
                2.6667,
                8.0,
                8 * MB,
                0,
                0.0,
                2,
                MergeRule.Verdict.COMPACTABLE),
            new PartitionHealth(
                "event_date=2026-10-18",
                java.util.Map.of("event_date", "2026-10-18"),
                1,
                0,
                0.0,
                10.0,
                10.0,
                10 * MB,
                0,
                0.0,
                0,
                MergeRule.Verdict.BELOW_GATE));
    assertThat(health.totalFiles()).isEqualTo(4);
    assertThat(health.totalSmallFiles()).isEqualTo(2);
    assertThat(health.smallFileRatioPct()).isEqualTo(50.0);
    assertThat(health.avgFileSizeMb()).isEqualTo(4.5);
    assertThat(health.totalSizeMb()).isEqualTo(18.0);
    assertThat(health.totalRows()).isEqualTo(100L);
    assertThat(health.compactionRequired()).isTrue();
  }

  @Test
  void inspect_fileExactlyAtThreshold_isNotSmall() {
    TableHealth health =
        TableInspector.inspect(
            Snapshots.partitioned(1, List.of(file("d", 4 * MB, 1), file("d", 4 * MB - 1, 1))),
            4 * MB,
            40);

    assertThat(health.totalSmallFiles()).isEqualTo(1);
  }

  @Test
  void inspect_gateIsReachedAtExactlyTheThreshold_andNotBelow() {
    List<company.data.compactor.model.DataFile> files =
        List.of(
            file("d", 1, 1), file("d", 1, 1), file("d", MB, 1), file("d", MB, 1), file("d", MB, 1));

    assertThat(
            TableInspector.inspect(Snapshots.partitioned(1, files), MB, 40.0).compactionRequired())
        .isTrue();
    assertThat(
            TableInspector.inspect(Snapshots.partitioned(1, files), MB, 40.01).compactionRequired())
        .isFalse();
  }

  @Test
  void inspect_emptyTable_isHealthyWithZeroes() {
    TableHealth health = TableInspector.inspect(Snapshots.partitioned(0, List.of()), MB, 40);

    assertThat(health.partitions()).isEmpty();
    assertThat(health.totalFiles()).isZero();
    assertThat(health.smallFileRatioPct()).isZero();
    assertThat(health.avgFileSizeMb()).isZero();
    assertThat(health.totalRows()).isZero();
    assertThat(health.compactionRequired()).isFalse();
  }

  @Test
  void inspect_unpartitionedTable_hasOnePartitionLabelledUnpartitioned() {
    TableHealth health =
        TableInspector.inspect(
            Snapshots.unpartitioned(
                2,
                List.of(
                    Snapshots.unpartitionedFile(MB, OptionalLong.of(5)),
                    Snapshots.unpartitionedFile(MB, OptionalLong.empty()))),
            2 * MB,
            40);

    assertThat(health.partitions())
        .extracting(PartitionHealth::partition)
        .containsExactly("unpartitioned");
    assertThat(health.totalRows()).as("a file without stats makes the total unknown").isNull();
    assertThat(health.filesWithoutStats()).isEqualTo(1);
  }

  @Test
  void inspect_nullPartition_isLabelledAsHiveDoes_andKeepsTheNullValue() {
    TableHealth health =
        TableInspector.inspect(Snapshots.partitioned(1, List.of(file(null, 1, 1))), MB, 40);

    PartitionHealth partition = health.partitions().get(0);
    assertThat(partition.partition()).isEqualTo("event_date=__HIVE_DEFAULT_PARTITION__");
    assertThat(partition.partitionValues()).containsEntry("event_date", null);
  }
}
