package company.data.compactor.testing;

import company.data.compactor.model.Column;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.PartitionValues;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSchema;
import company.data.compactor.model.TableSnapshot;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/** In-memory snapshots for pure tests: files of chosen sizes in chosen partitions. */
public final class Snapshots {

  private static final AtomicInteger NEXT = new AtomicInteger();

  private Snapshots() {}

  /** A file of {@code sizeBytes} with {@code rows} rows in partition {@code date} of event_date. */
  public static DataFile file(String date, long sizeBytes, long rows) {
    Map<String, String> values = new HashMap<>();
    values.put("event_date", date);
    int n = NEXT.incrementAndGet();
    String name = "part-" + n + ".parquet";
    return new DataFile(
        "file:/t/event_date=" + date + "/" + name,
        "event_date=" + date + "/" + name,
        sizeBytes,
        PartitionValues.of(List.of("event_date"), values),
        OptionalLong.of(rows),
        n,
        false);
  }

  /** A file of an unpartitioned table. */
  public static DataFile unpartitionedFile(long sizeBytes, OptionalLong rows) {
    int n = NEXT.incrementAndGet();
    String name = "part-" + n + ".parquet";
    return new DataFile("file:/t/" + name, name, sizeBytes, PartitionValues.none(), rows, n, false);
  }

  /** A snapshot of a table partitioned by event_date holding {@code files}. */
  public static TableSnapshot partitioned(long version, List<DataFile> files) {
    TableSchema schema =
        new TableSchema(
            List.of(new Column("id", "long", true), new Column("event_date", "string", true)),
            List.of("event_date"));
    return new TableSnapshot(
        new TableLocation("file:/t"), version, schema, files, Map.of(), Set.of());
  }

  /** A snapshot of an unpartitioned table holding {@code files}. */
  public static TableSnapshot unpartitioned(long version, List<DataFile> files) {
    TableSchema schema = new TableSchema(List.of(new Column("id", "long", true)), List.of());
    return new TableSnapshot(
        new TableLocation("file:/t"), version, schema, files, Map.of(), Set.of());
  }
}
