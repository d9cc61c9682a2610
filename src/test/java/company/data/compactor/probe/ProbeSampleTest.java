package company.data.compactor.probe;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.model.DataFile;
import company.data.compactor.model.PartitionValues;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class ProbeSampleTest {

  private static final PartitionValues A = new PartitionValues(Map.of("d", "a"));
  private static final PartitionValues B = new PartitionValues(Map.of("d", "b"));
  private static final PartitionValues C = new PartitionValues(Map.of("d", "c"));

  private static DataFile file(PartitionValues p, String name, long size) {
    return new DataFile("s3://b/t/" + name, name, size, p, OptionalLong.empty(), 0, false);
  }

  private static List<String> names(ProbeSample sample) {
    return sample.files().stream().map(DataFile::logPath).toList();
  }

  @Test
  void takesFilesRoundRobinOverThePartitions_inPathOrder_upToTheFileCap() {
    List<DataFile> files =
        List.of(
            file(A, "a2", 10),
            file(A, "a1", 10),
            file(B, "b1", 10),
            file(B, "b2", 10),
            file(C, "c1", 10));

    ProbeSample sample = ProbeSample.select(files, List.of(A, B), 3, 1_000, Long.MAX_VALUE);

    assertThat(names(sample)).containsExactly("a1", "b1", "a2");
    assertThat(sample.bytes()).isEqualTo(30);
    assertThat(sample.partitionsAvailable()).as("C is not sampled").isEqualTo(4);
  }

  @Test
  void passesOverFilesThatWouldExceedTheByteCap() {
    List<DataFile> files = List.of(file(A, "a1", 60), file(A, "a2", 50), file(A, "a3", 40));

    ProbeSample sample = ProbeSample.select(files, List.of(A), 10, 100, Long.MAX_VALUE);

    assertThat(names(sample)).containsExactly("a1", "a3");
    assertThat(sample.bytes()).isEqualTo(100);
  }

  @Test
  void afterCompaction_stopsOnceAsManyBytesAsBefore_areSampled() {
    List<DataFile> files = List.of(file(A, "big1", 500), file(B, "big2", 500));

    ProbeSample sample = ProbeSample.select(files, List.of(A, B), 64, 1_000, 370);

    assertThat(names(sample)).containsExactly("big1");
  }

  @Test
  void nothingFits_whenEveryFileIsLargerThanTheCap() {
    ProbeSample sample =
        ProbeSample.select(List.of(file(A, "huge", 2_000)), List.of(A), 64, 1_000, 370);

    assertThat(sample.files()).isEmpty();
    assertThat(sample.nothingFits()).isTrue();
    assertThat(ProbeSample.select(List.of(), List.of(A), 64, 1_000, 1).nothingFits()).isFalse();
  }

  @Test
  void aPrefixWithinABudgetOfBytes_keepsTheRoundRobinOrder_andCanBeEmpty() {
    List<DataFile> files =
        List.of(file(A, "a1", 10), file(A, "a2", 10), file(B, "b1", 30), file(B, "b2", 10));
    ProbeSample sample = ProbeSample.select(files, List.of(A, B), 10, 1_000, Long.MAX_VALUE);

    ProbeSample prefix = sample.prefixWithin(45);

    assertThat(names(prefix)).containsExactly("a1", "b1");
    assertThat(prefix.bytes()).isEqualTo(40);
    assertThat(prefix.partitionsAvailable()).isEqualTo(sample.partitionsAvailable());
    assertThat(sample.prefixWithin(1_000)).isEqualTo(sample);
    assertThat(sample.prefixWithin(9).files()).isEmpty();
  }

  @Test
  void firstFiles_isTheRoundRobinPrefixOfThatManyFiles_withTheirBytes() {
    List<DataFile> files =
        List.of(file(A, "a1", 10), file(A, "a2", 20), file(B, "b1", 30), file(B, "b2", 40));
    ProbeSample sample = ProbeSample.select(files, List.of(A, B), 64, 1_000, Long.MAX_VALUE);

    ProbeSample round = sample.firstFiles(3);

    assertThat(names(round)).containsExactly("a1", "b1", "a2");
    assertThat(round.bytes()).isEqualTo(60);
    assertThat(round.partitionsAvailable()).isEqualTo(4);
    assertThat(sample.firstFiles(16)).isEqualTo(sample);
  }
}
