package company.data.compactor.compact;

import static company.data.compactor.testing.Snapshots.file;
import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.model.DataFile;
import company.data.compactor.testing.Snapshots;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * The bin packer with tiny sizes: threshold 100 bytes, target 300, bins of at most 300 input bytes.
 */
class CompactionPlannerTest {

  private static CompactionOptions options(double ratioPct) {
    return new CompactionOptions(
        100,
        ratioPct,
        300,
        300,
        PartitionFilter.all(),
        OptionalLong.empty(),
        Layout.BIN_PACK,
        List.of());
  }

  private static CompactionPlan plan(List<DataFile> files, CompactionOptions options) {
    return CompactionPlanner.plan(Snapshots.partitioned(5, files), options);
  }

  private static List<List<DataFile>> binFiles(CompactionPlan plan) {
    return plan.bins().stream().map(Bin::files).toList();
  }

  @Test
  void adjacentSmallFiles_formOneBin_cutOnlyAtTheBinBound() {
    List<DataFile> files = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      files.add(file("d", 60, 1));
    }

    CompactionPlan plan = plan(files, options(40));

    // 5 files = 300 bytes fill a bin; the 6th would make 360.
    assertThat(binFiles(plan)).containsExactly(files.subList(0, 5), files.subList(5, 7));
    assertThat(plan.bins().get(0).inputBytes()).isEqualTo(300);
    assertThat(plan.readVersion()).isEqualTo(5);
  }

  @Test
  void binsAreBoundedByInputBytes_notByAGuessOfTheOutputSize() {
    List<DataFile> files =
        List.of(file("d", 60, 1), file("d", 60, 1), file("d", 60, 1), file("d", 60, 1));
    CompactionOptions wide =
        new CompactionOptions(
            100,
            40,
            100,
            1000,
            PartitionFilter.all(),
            OptionalLong.empty(),
            Layout.BIN_PACK,
            List.of());

    // Target 100: the writer splits the output at 100 bytes; the bin itself holds all four files.
    // (Four 90-byte files would fill four 100-byte outputs again: nothing to merge,
    // MergeVerdictTest.)
    assertThat(binFiles(plan(files, wide))).containsExactly(files);
  }

  @Test
  void aLargeFileBetweenSmallOnes_breaksAdjacency_andIsNeverTouched() {
    DataFile a = file("d", 50, 1);
    DataFile b = file("d", 50, 1);
    DataFile large = file("d", 100, 1);
    DataFile c = file("d", 50, 1);
    DataFile d = file("d", 50, 1);

    CompactionPlan plan = plan(List.of(a, b, large, c, d), options(40));

    assertThat(binFiles(plan)).containsExactly(List.of(a, b), List.of(c, d));
    assertThat(plan.bins()).allSatisfy(bin -> assertThat(bin.files()).doesNotContain(large));
  }

  @Test
  void singleFileBins_areDropped() {
    DataFile lonely = file("d", 50, 1);
    DataFile large1 = file("d", 200, 1);
    DataFile a = file("d", 50, 1);
    DataFile b = file("d", 50, 1);
    DataFile large2 = file("d", 200, 1);
    DataFile alsoLonely = file("d", 50, 1);

    CompactionPlan plan = plan(List.of(lonely, large1, a, b, large2, alsoLonely), options(40));

    assertThat(binFiles(plan)).containsExactly(List.of(a, b));
  }

  @Test
  void tableGate_belowTheRatio_plansNothing() {
    List<DataFile> files =
        List.of(
            file("d", 50, 1),
            file("d", 50, 1),
            file("d", 200, 1),
            file("d", 200, 1),
            file("d", 200, 1));

    CompactionPlan plan = plan(files, options(40.01));

    assertThat(plan.tableGatePassed()).isFalse();
    assertThat(plan.isEmpty()).isTrue();
    assertThat(plan.partitions())
        .extracting(PartitionDecision::outcome)
        .containsExactly(PartitionDecision.Outcome.BELOW_GATE);
    assertThat(plan(files, options(40)).bins()).hasSize(1);
  }

  @Test
  void healthyPartitions_areNotChurned_evenWhenTheTablePassesTheGate() {
    List<DataFile> files = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      files.add(file("fragmented", 50, 1));
    }
    files.add(file("healthy", 50, 1));
    files.add(file("healthy", 50, 1));
    for (int i = 0; i < 4; i++) {
      files.add(file("healthy", 200, 1));
    }

    CompactionPlan plan = plan(files, options(50));

    assertThat(plan.tableGatePassed()).isTrue(); // 6 of 10 small
    assertThat(plan.bins())
        .singleElement()
        .satisfies(bin -> assertThat(bin.partition().label()).isEqualTo("event_date=fragmented"));
    assertThat(plan.partitions())
        .extracting(d -> d.partition().label(), PartitionDecision::outcome)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "event_date=fragmented", PartitionDecision.Outcome.COMPACT),
            org.assertj.core.groups.Tuple.tuple(
                "event_date=healthy", PartitionDecision.Outcome.BELOW_GATE));
  }

  @Test
  void partitionsAreKeyedByValue_evenWhenTheirUnescapedLabelsWouldCollide() {
    java.util.function.BiFunction<String, String, DataFile> file =
        (a, b) -> {
          java.util.Map<String, String> values = new java.util.HashMap<>();
          values.put("a", a);
          values.put("b", b);
          String name = "part-" + java.util.UUID.randomUUID() + ".parquet";
          return new DataFile(
              "file:/t/" + name,
              name,
              50,
              company.data.compactor.model.PartitionValues.of(List.of("a", "b"), values),
              java.util.OptionalLong.of(1),
              1,
              false);
        };
    List<DataFile> files =
        List.of(
            file.apply("x/b=y", "z"),
            file.apply("x", "y/b=z"),
            file.apply("x/b=y", "z"),
            file.apply("x", "y/b=z"),
            file.apply(null, "z"),
            file.apply(company.data.compactor.model.PartitionValues.NULL_LABEL, "z"),
            file.apply(null, "z"),
            file.apply(company.data.compactor.model.PartitionValues.NULL_LABEL, "z"));

    CompactionPlan plan = plan(files, options(40));

    assertThat(plan.partitions()).hasSize(4);
    assertThat(plan.bins())
        .hasSize(4)
        .allSatisfy(
            bin -> {
              assertThat(bin.files()).hasSize(2);
              assertThat(bin.files()).extracting(DataFile::partition).containsOnly(bin.partition());
            });
  }

  @Test
  void binsNeverMixPartitions() {
    List<DataFile> files =
        List.of(file("x", 50, 1), file("y", 50, 1), file("x", 50, 1), file("y", 50, 1));

    CompactionPlan plan = plan(files, options(40));

    assertThat(plan.bins())
        .hasSize(2)
        .allSatisfy(
            bin ->
                assertThat(bin.files())
                    .extracting(f -> f.partition().label())
                    .containsOnly(bin.partition().label()));
  }

  @Test
  void partitionFilter_limitsTheScope_andTheGateIsJudgedOnTheScope() {
    List<DataFile> files = new ArrayList<>();
    files.add(file("2026-10-17", 50, 1));
    files.add(file("2026-10-17", 50, 1));
    files.add(file("2026-10-18", 50, 1));
    files.add(file("2026-10-18", 50, 1));
    for (int i = 0; i < 10; i++) {
      files.add(file("2026-10-16", 200, 1));
    }
    PartitionFilter filter =
        PartitionFilter.parse(
            "event_date >= '2026-10-18'", Snapshots.partitioned(0, List.of()).schema());
    CompactionOptions options =
        new CompactionOptions(
            100, 40, 300, 300, filter, OptionalLong.empty(), Layout.BIN_PACK, List.of());

    CompactionPlan plan = plan(files, options);

    assertThat(plan.bins())
        .singleElement()
        .satisfies(bin -> assertThat(bin.partition().label()).isEqualTo("event_date=2026-10-18"));
    assertThat(plan.partitions())
        .extracting(PartitionDecision::outcome)
        .containsExactly(
            PartitionDecision.Outcome.FILTERED_OUT,
            PartitionDecision.Outcome.FILTERED_OUT,
            PartitionDecision.Outcome.COMPACT);
  }

  @Test
  void budget_takesBinsInOrder_andDefersTheRest() {
    List<DataFile> files = new ArrayList<>();
    for (String p : List.of("a", "b", "c")) {
      files.add(file(p, 50, 1));
      files.add(file(p, 50, 1));
    }
    CompactionOptions options =
        new CompactionOptions(
            100,
            40,
            300,
            300,
            PartitionFilter.all(),
            OptionalLong.of(250),
            Layout.BIN_PACK,
            List.of());

    CompactionPlan plan = plan(files, options);

    assertThat(plan.bins())
        .extracting(b -> b.partition().label())
        .containsExactly("event_date=a", "event_date=b");
    assertThat(plan.deferred())
        .extracting(b -> b.partition().label())
        .containsExactly("event_date=c");
    assertThat(plan.bytesToRewrite()).isEqualTo(200);
    assertThat(plan.bytesDeferred()).isEqualTo(100);
  }

  /** Outputs of a bin as the writer produces them: target-size files plus one remainder. */
  private static List<DataFile> outputsOf(Bin bin, long target, double compression) {
    long total = Math.round(bin.inputBytes() * compression);
    List<DataFile> outputs = new ArrayList<>();
    for (; total >= target; total -= target) {
      outputs.add(file(bin.partition().values().get("event_date"), target, 1));
    }
    if (total > 0) {
      outputs.add(file(bin.partition().values().get("event_date"), total, 1));
    }
    return outputs;
  }

  @Test
  void convergence_aPartitionRewrittenAsOneBin_plansNothingNextRun_whateverTheCompression() {
    for (double compression : List.of(1.0, 0.5, 0.2)) {
      List<DataFile> files = new ArrayList<>();
      for (int i = 0; i < 12; i++) {
        files.add(file("d", 60, 1));
      }
      CompactionOptions options =
          new CompactionOptions(
              100,
              40,
              100,
              10_000,
              PartitionFilter.all(),
              OptionalLong.empty(),
              Layout.BIN_PACK,
              List.of());
      CompactionPlan first = plan(files, options);
      assertThat(first.bins()).hasSize(1);

      List<DataFile> after = outputsOf(first.bins().get(0), 100, compression);

      assertThat(plan(after, options).isEmpty())
          .as("compression %s: %s", compression, after)
          .isTrue();
    }
  }

  @Test
  void convergence_aRunCutIntoSeveralBins_mergesTheRemaindersOnce_thenPlansNothing() {
    List<DataFile> files = new ArrayList<>();
    for (int i = 0; i < 13; i++) {
      files.add(file("d", 60, 1));
    }
    CompactionOptions options =
        new CompactionOptions(
            100,
            40,
            100,
            300,
            PartitionFilter.all(),
            OptionalLong.empty(),
            Layout.BIN_PACK,
            List.of());
    CompactionPlan first = plan(files, options);
    assertThat(first.bins()).hasSize(3); // 5 + 5 + 3 files

    List<DataFile> after = new ArrayList<>();
    first.bins().forEach(bin -> after.addAll(outputsOf(bin, 100, 0.5)));
    CompactionPlan second = plan(after, options);
    List<DataFile> afterSecond = new ArrayList<>(after);
    second
        .bins()
        .forEach(
            bin -> {
              afterSecond.removeAll(bin.files());
              afterSecond.addAll(outputsOf(bin, 100, 1.0));
            });

    assertThat(after).extracting(DataFile::sizeBytes).containsExactly(100L, 50L, 100L, 50L, 90L);
    assertThat(second.bins()).hasSize(1);
    assertThat(plan(afterSecond, options).isEmpty()).isTrue();
  }

  @Test
  void unpartitionedTables_areOnePartition() {
    List<DataFile> files =
        List.of(
            Snapshots.unpartitionedFile(50, OptionalLong.of(3)),
            Snapshots.unpartitionedFile(50, OptionalLong.of(4)));

    CompactionPlan plan = CompactionPlanner.plan(Snapshots.unpartitioned(1, files), options(40));

    assertThat(plan.bins())
        .singleElement()
        .satisfies(
            bin -> {
              assertThat(bin.partition().label()).isEqualTo("unpartitioned");
              assertThat(bin.inputRows()).isEqualTo(7);
            });
  }

  private static CompactionOptions zOrder(long maxGroupBytes) {
    return new CompactionOptions(
        100,
        40,
        300,
        300,
        PartitionFilter.all(),
        OptionalLong.empty(),
        Layout.Z_ORDER,
        List.of("id"),
        maxGroupBytes);
  }

  private static DataFile clustered(String date, long size) {
    DataFile f = file(date, size, 1);
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

  @Test
  void zOrder_rewritesEveryFileOfAPartitionOverTheGate_inGroupsBoundedByMaxGroupBytes() {
    List<DataFile> files =
        List.of(
            file("d", 60, 1),
            file("d", 500, 1),
            file("d", 60, 1),
            file("d", 400, 1),
            file("d", 60, 1));

    CompactionPlan plan = plan(files, zOrder(600));

    // big files are not skipped: clustering needs every row of the partition; 560 + 60 > 600 cuts.
    assertThat(binFiles(plan)).containsExactly(files.subList(0, 2), files.subList(2, 5));
    assertThat(plan.partitions().get(0).outcome()).isEqualTo(PartitionDecision.Outcome.COMPACT);
  }

  @Test
  void zOrder_leavesAPartitionAlone_whenEveryFileIsClusteredByTheSameColumns() {
    List<DataFile> files = List.of(clustered("d", 60), clustered("d", 60), clustered("d", 60));

    CompactionPlan plan = plan(files, zOrder(1_000));

    assertThat(plan.bins()).isEmpty();
    assertThat(plan.partitions().get(0).outcome())
        .isEqualTo(PartitionDecision.Outcome.ALREADY_CLUSTERED);
  }

  @Test
  void zOrder_reclustersThePartition_whenANewFileArrived() {
    List<DataFile> files = List.of(clustered("d", 60), clustered("d", 60), file("d", 60, 1));

    CompactionPlan plan = plan(files, zOrder(1_000));

    assertThat(binFiles(plan)).containsExactly(files);
  }

  @Test
  void zOrder_onOtherColumns_isNotClusteredYet() {
    DataFile byOther =
        new DataFile(
            "file:/t/x",
            "x",
            60,
            file("d", 60, 1).partition(),
            OptionalLong.of(1),
            1,
            false,
            null,
            List.of("other"));
    List<DataFile> files = List.of(byOther, clustered("d", 60));

    assertThat(plan(files, zOrder(1_000)).bins()).hasSize(1);
  }
}
