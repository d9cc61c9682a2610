package company.data.compactor.report;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.model.DataFile;
import company.data.compactor.model.PartitionValues;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class FileSizeHistogramTest {

  private static final long MB = 1024 * 1024;

  private static DataFile file(String date, long bytes) {
    return new DataFile(
        "p/" + date + "/" + bytes,
        "p/" + bytes,
        bytes,
        PartitionValues.of(List.of("d"), Map.of("d", date)),
        OptionalLong.empty(),
        0,
        false);
  }

  @Test
  void bucketBounds_areUpperExclusive_andTheLastIsOpen() {
    assertThat(FileSizeHistogram.bucket(0)).isZero();
    assertThat(FileSizeHistogram.bucket(MB - 1)).isZero();
    assertThat(FileSizeHistogram.bucket(MB)).isEqualTo(1);
    assertThat(FileSizeHistogram.bucket(128 * MB - 1)).isEqualTo(4);
    assertThat(FileSizeHistogram.bucket(128 * MB)).isEqualTo(5);
    assertThat(FileSizeHistogram.bucket(10_000 * MB)).isEqualTo(7);
  }

  @Test
  void countsPerPartition_beforeAndAfter_includingPartitionsThatOnlyExistOnOneSide() {
    FileSizeHistogram h =
        FileSizeHistogram.of(
            List.of(file("a", 10), file("a", 20), file("a", 200 * MB), file("b", 3 * MB)),
            List.of(file("a", 100 * MB), file("a", 200 * MB), file("c", 1)));

    assertThat(h.bucketUpperMb()).containsExactly(1.0, 8.0, 32.0, 64.0, 128.0, 256.0, 512.0, null);
    assertThat(h.partitions())
        .extracting(FileSizeHistogram.PartitionSizes::partition)
        .containsExactly("d=a", "d=b", "d=c");
    assertThat(h.partitions().get(0).before()).containsExactly(2, 0, 0, 0, 0, 1, 0, 0);
    assertThat(h.partitions().get(0).after()).containsExactly(0, 0, 0, 0, 1, 1, 0, 0);
    assertThat(h.partitions().get(1).after()).containsOnly(0);
    assertThat(h.partitions().get(2).before()).containsOnly(0);
  }

  @Test
  void withoutAnAfterSide_afterIsNull() {
    assertThat(FileSizeHistogram.of(List.of(file("a", 1)), null).partitions().get(0).after())
        .isNull();
  }
}
