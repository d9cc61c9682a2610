package company.data.compactor.compact;

import static company.data.compactor.testing.Snapshots.file;
import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.inspect.PartitionHealth;
import company.data.compactor.inspect.TableHealth;
import company.data.compactor.inspect.TableInspector;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.MergeRule;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.testing.Snapshots;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * Compactable means merging improves something, and the inspector and the planner say so by the
 * same rule. Tiny sizes: small-file threshold 100 bytes, target 300, gate 40 %.
 */
class MergeVerdictTest {

  private static final CompactionOptions OPTIONS =
      new CompactionOptions(
          100,
          40,
          300,
          3000,
          PartitionFilter.all(),
          OptionalLong.empty(),
          Layout.BIN_PACK,
          List.of());

  private static TableHealth inspect(TableSnapshot snapshot) {
    return TableInspector.inspect(snapshot, CompactionGate.rule(OPTIONS));
  }

  @Test
  void afterACompaction_onePartitionPerSmallFile_isNothingToMerge_notCompactionRequired() {
    TableSnapshot compacted =
        Snapshots.partitioned(
            33,
            List.of(
                file("2026-10-17", 40, 500),
                file("2026-10-18", 40, 500),
                file("2026-10-19", 40, 500)));

    TableHealth health = inspect(compacted);
    CompactionPlan plan = CompactionPlanner.plan(compacted, OPTIONS);

    assertThat(health.smallFileRatioPct()).isEqualTo(100.0);
    assertThat(health.ratioReachesGate()).isTrue();
    assertThat(health.compactionRequired()).isFalse();
    assertThat(health.compactableSmallFiles()).isZero();
    assertThat(health.partitions())
        .extracting(PartitionHealth::verdict, PartitionHealth::compactableSmallFiles)
        .containsOnly(org.assertj.core.groups.Tuple.tuple(MergeRule.Verdict.NOTHING_TO_MERGE, 0));
    assertThat(plan.partitions())
        .extracting(PartitionDecision::outcome)
        .containsOnly(PartitionDecision.Outcome.NOTHING_TO_MERGE);
    assertThat(plan.isEmpty()).isTrue();
  }

  @Test
  void smallFilesThatWouldFillAsManyOutputs_areNothingToMerge() {
    // 3 x 99 bytes = 297 bytes: one 300-byte output, so 3 -> 1 is worth it ...
    List<DataFile> worth = List.of(file("a", 99, 1), file("a", 99, 1), file("a", 99, 1));
    // ... but a target of 100 bytes makes them 3 outputs again: 3 -> 3 is churn.
    CompactionOptions tight =
        new CompactionOptions(
            100,
            40,
            100,
            3000,
            PartitionFilter.all(),
            OptionalLong.empty(),
            Layout.BIN_PACK,
            List.of());

    TableSnapshot snapshot = Snapshots.partitioned(1, worth);

    assertThat(inspect(snapshot).compactionRequired()).isTrue();
    assertThat(CompactionPlanner.plan(snapshot, OPTIONS).bins()).hasSize(1);
    assertThat(TableInspector.inspect(snapshot, CompactionGate.rule(tight)).compactionRequired())
        .isFalse();
    assertThat(CompactionPlanner.plan(snapshot, tight).partitions())
        .extracting(PartitionDecision::outcome)
        .containsExactly(PartitionDecision.Outcome.NOTHING_TO_MERGE);
    assertThat(CompactionPlanner.plan(snapshot, tight).isEmpty()).isTrue();
  }

  @Test
  void inspectorAndPlanner_agree_partitionByPartition() {
    List<List<DataFile>> tables = new ArrayList<>();
    tables.add(List.of(file("a", 40, 1), file("b", 40, 1), file("c", 40, 1)));
    tables.add(List.of(file("a", 40, 1), file("a", 40, 1), file("b", 40, 1)));
    tables.add(
        List.of(
            file("a", 40, 1),
            file("a", 40, 1),
            file("b", 200, 1),
            file("b", 200, 1),
            file("b", 40, 1)));
    tables.add(List.of(file("a", 200, 1), file("a", 200, 1), file("a", 40, 1)));
    tables.add(List.of(file("a", 40, 1), file("a", 40, 1), file("a", 40, 1), file("a", 40, 1)));
    for (List<DataFile> files : tables) {
      TableSnapshot snapshot = Snapshots.partitioned(1, files);
      TableHealth health = inspect(snapshot);
      CompactionPlan plan = CompactionPlanner.plan(snapshot, OPTIONS);

      assertThat(health.compactionRequired()).as("%s", files).isEqualTo(!plan.isEmpty());
      assertThat(health.partitions())
          .extracting(p -> p.verdict().name())
          .as("%s", files)
          .containsExactlyElementsOf(
              plan.partitions().stream()
                  .map(
                      d ->
                          d.outcome() == PartitionDecision.Outcome.COMPACT
                              ? "COMPACTABLE"
                              : d.outcome().name())
                  .toList());
    }
  }
}
