package company.data.compactor.demo;

import company.data.compactor.delta.DeltaTables;
import company.data.compactor.delta.TableWriter;
import company.data.compactor.error.Errors;
import company.data.compactor.model.TableKeys;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.Storage;
import company.data.compactor.storage.StoredObject;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a fresh {@link DemoTable} at a location. A previous demo table there is replaced; anything
 * else (a real table, other files) is refused and left untouched.
 */
public final class DemoSeeder {

  private static final System.Logger LOG = System.getLogger(DemoSeeder.class.getName());

  private final Storage storage;
  private final DeltaTables tables;
  private final TableWriter writer;

  /** Seeds through {@code writer}; reads and clears {@code storage}. */
  public DemoSeeder(Storage storage, DeltaTables tables, TableWriter writer) {
    this.storage = storage;
    this.tables = tables;
    this.writer = writer;
  }

  /**
   * Replaces whatever demo table is at {@code location} with a fresh one.
   *
   * @return the version of the last append
   * @throws company.data.compactor.error.CompactorException REFUSED when the location holds a table
   *     or files the compactor did not seed
   */
  public long seed(TableLocation location) {
    clearPreviousDemo(location);
    writer.create(location, DemoTable.SCHEMA, DemoTable.properties());
    List<TableWriter.Append> appends = new ArrayList<>();
    for (int i = 0; i < DemoTable.APPENDS; i++) {
      appends.add(new TableWriter.Append(DemoTable.partitionOf(i), DemoTable.rowsOf(i)));
    }
    long version = writer.appendAll(location, appends);
    LOG.log(
        Level.INFO,
        "demo seeded: table={0} version={1} appends={2} rows={3}",
        location,
        version,
        DemoTable.APPENDS,
        DemoTable.totalRows());
    return version;
  }

  private void clearPreviousDemo(TableLocation location) {
    List<StoredObject> existing;
    try {
      // The compactor's own records (the lease this run holds) are not the table's files.
      String own = location.child(TableKeys.COMPACTOR_DIRECTORY) + "/";
      existing =
          storage.listRecursively(location.uri()).stream()
              .filter(o -> !o.path().startsWith(own))
              .toList();
    } catch (IOException e) {
      throw Errors.operationFailed("listing " + location + " before seeding the demo table", e);
    }
    if (existing.isEmpty()) {
      return;
    }
    if (!tables.exists(location)) {
      throw Errors.refused(
          "seed the demo table at " + location,
          existing.size()
              + " files are there and they are not a Delta table the compactor seeded. Point"
              + " table_uri at an empty or new location, or run with demo_mode=false.");
    }
    TableSnapshot snapshot = tables.loadLatest(location);
    if (!"true".equals(snapshot.properties().get(DemoTable.DEMO_PROPERTY))) {
      throw Errors.refused(
          "seed the demo table at " + location,
          "a Delta table the compactor did not seed is there (no "
              + DemoTable.DEMO_PROPERTY
              + "=true property) and demo mode would replace it. Run with demo_mode=false to"
              + " maintain that table.");
    }
    try {
      storage.deleteAll(existing.stream().map(StoredObject::path).toList());
    } catch (IOException e) {
      throw Errors.operationFailed("removing the previous demo table at " + location, e);
    }
    LOG.log(
        Level.INFO, "previous demo table removed: table={0} files={1}", location, existing.size());
  }
}
