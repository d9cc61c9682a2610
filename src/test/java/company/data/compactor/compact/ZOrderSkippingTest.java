package company.data.compactor.compact;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.model.DataFile;
import company.data.compactor.model.PartitionValues;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A rewrite that collapses each partition to one file raises the skipping fraction (one file holds
 * every value) while a point lookup reads fewer files: the report must show both.
 */
class ZOrderSkippingTest {

  private static DataFile file(String date, int n, long min, long max, long size) {
    return new DataFile(
        "file:/t/event_date=" + date + "/part-" + n + ".parquet",
        "event_date=" + date + "/part-" + n + ".parquet",
        size,
        PartitionValues.of(List.of("event_date"), Map.of("event_date", date)),
        OptionalLong.of(10),
        n,
        false,
        "{\"numRecords\":10,\"minValues\":{\"customer_id\":"
            + min
            + "},\"maxValues\":{\"customer_id\":"
            + max
            + "}}",
        List.of());
  }

  @Test
  void collapsingEachPartitionToOneFile_raisesTheFraction_butHalvesTheFilesALookupReads() {
    List<DataFile> before = new ArrayList<>();
    List<DataFile> after = new ArrayList<>();
    int n = 0;
    for (String date : List.of("2026-10-17", "2026-10-18")) {
      before.add(file(date, n++, 0, 10, 100));
      before.add(file(date, n++, 5, 15, 100));
      before.add(file(date, n++, 10, 20, 100));
      before.add(file(date, n++, 15, 25, 100));
      after.add(file(date, n++, 0, 25, 300));
    }
    Set<PartitionValues> partitions = Set.of(before.get(0).partition(), before.get(4).partition());

    List<ZOrderSkipping.ColumnSkipping> measured =
        ZOrderSkipping.measure(before, after, List.of("customer_id"), partitions);

    // Sampled values 0, 5, 10, 15, 20, 25: 1, 2, 3, 3, 2, 1 of 4 files per partition before.
    assertThat(measured)
        .containsExactly(
            new ZOrderSkipping.ColumnSkipping("customer_id", 6, 0.5, 1.0, 4.0, 2.0, 400.0, 600.0));
  }
}
