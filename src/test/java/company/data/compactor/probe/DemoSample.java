package company.data.compactor.probe;

import company.data.compactor.delta.kernel.KernelDeltaTables;
import company.data.compactor.delta.kernel.KernelTableWriter;
import company.data.compactor.demo.DemoSeeder;
import company.data.compactor.demo.DemoTable;
import company.data.compactor.model.PartitionValues;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.LocalStorage;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** The demo table the probe tests measure: seeded at {@code work/t}, loaded, its 3 partitions. */
record DemoSample(LocalStorage local, TableSnapshot snapshot, List<PartitionValues> partitions) {

  static DemoSample seed(Path work) {
    LocalStorage local = new LocalStorage();
    TableLocation location = TableLocation.parse("demo", work.resolve("t"));
    KernelDeltaTables tables = new KernelDeltaTables(local);
    new DemoSeeder(local, tables, new KernelTableWriter(local)).seed(location);
    return new DemoSample(
        local,
        tables.loadLatest(location),
        DemoTable.DATES.stream().map(d -> new PartitionValues(Map.of("event_date", d))).toList());
  }
}
