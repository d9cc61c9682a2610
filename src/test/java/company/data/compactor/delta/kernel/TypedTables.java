package company.data.compactor.delta.kernel;

import company.data.compactor.model.TableLocation;
import company.data.compactor.storage.LocalStorage;
import io.delta.kernel.DataWriteContext;
import io.delta.kernel.Operation;
import io.delta.kernel.TableManager;
import io.delta.kernel.Transaction;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.expressions.Column;
import io.delta.kernel.expressions.Literal;
import io.delta.kernel.transaction.DataLayoutSpec;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterable;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.DataFileStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Test tables of any Delta schema: each append is one Parquet file written by DuckDB from a SELECT
 * and committed through kernel as a blind append (no stats).
 */
public final class TypedTables {

  private final Engine engine = KernelEngines.over(new LocalStorage());

  /** Creates an empty table partitioned by one string column. */
  public void create(TableLocation location, StructType schema, String partitionColumn) {
    create(location, schema, partitionColumn, Map.of());
  }

  /** Creates an empty table with table properties (e.g. enabling a table feature). */
  public void create(
      TableLocation location,
      StructType schema,
      String partitionColumn,
      Map<String, String> properties) {
    create(location, schema, List.of(partitionColumn), properties);
  }

  /**
   * Creates an empty table partitioned by {@code partitionColumns} (string columns of {@code
   * schema}).
   */
  public void create(
      TableLocation location,
      StructType schema,
      List<String> partitionColumns,
      Map<String, String> properties) {
    Transaction txn =
        TableManager.buildCreateTableTransaction(location.uri(), schema, "test")
            .withTableProperties(properties)
            .withDataLayoutSpec(
                DataLayoutSpec.partitioned(partitionColumns.stream().map(Column::new).toList()))
            .build(engine);
    txn.commit(engine, CloseableIterable.emptyIterable());
  }

  /**
   * Writes {@code select} to one Parquet file {@code files/<name>.parquet} (a directory that says
   * nothing about the partition: readers take partitions from the log) and commits it with the
   * given partition values, {@code null} for a NULL partition.
   */
  public void append(
      TableLocation location, Map<String, String> partition, String select, String name)
      throws Exception {
    Path dir = location.localPath().resolve("files");
    Files.createDirectories(dir);
    Map<String, Literal> values = new java.util.HashMap<>();
    partition.forEach(
        (column, value) ->
            values.put(
                column,
                value == null
                    ? Literal.ofNull(io.delta.kernel.types.StringType.STRING)
                    : Literal.ofString(value)));
    commitFile(location, dir.resolve(name + ".parquet"), select, values);
  }

  /**
   * Writes {@code select} (data columns only, named as the schema) to one Parquet file in the
   * partition and commits it.
   */
  public void append(
      TableLocation location, String partitionColumn, String value, String select, String name)
      throws Exception {
    Path dir = location.localPath().resolve(partitionColumn + "=" + value);
    Files.createDirectories(dir);
    commitFile(
        location,
        dir.resolve(name + ".parquet"),
        select,
        Map.of(partitionColumn, Literal.ofString(value)));
  }

  /**
   * As {@link #append(TableLocation, String, String, String, String)}, with extra options for
   * DuckDB's Parquet {@code COPY} (e.g. {@code KV_METADATA {...}} footer keys).
   */
  public void appendWithCopyOptions(
      TableLocation location,
      String partitionColumn,
      String value,
      String select,
      String name,
      String copyOptions)
      throws Exception {
    Path dir = location.localPath().resolve(partitionColumn + "=" + value);
    Files.createDirectories(dir);
    commitFile(
        location,
        dir.resolve(name + ".parquet"),
        select,
        Map.of(partitionColumn, Literal.ofString(value)),
        ", " + copyOptions);
  }

  private void commitFile(
      TableLocation location, Path file, String select, Map<String, Literal> partition)
      throws Exception {
    commitFile(location, file, select, partition, "");
  }

  private void commitFile(
      TableLocation location,
      Path file,
      String select,
      Map<String, Literal> partition,
      String copyOptions)
      throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement()) {
      s.execute("SET TimeZone = 'UTC'");
      s.execute("COPY (" + select + ") TO '" + file + "' (FORMAT parquet" + copyOptions + ")");
    }
    var snapshot = TableManager.loadSnapshot(location.uri()).build(engine);
    Transaction txn = snapshot.buildUpdateTableTransaction("test", Operation.WRITE).build(engine);
    Row state = txn.getTransactionState(engine);
    DataWriteContext context = Transaction.getWriteContext(engine, state, partition);
    DataFileStatus status =
        new DataFileStatus(
            LocalStorage.toStoragePath(file),
            Files.size(file),
            Files.getLastModifiedTime(file).toMillis(),
            Optional.empty());
    CloseableIterator<DataFileStatus> statuses =
        io.delta.kernel.internal.util.Utils.toCloseableIterator(List.of(status).iterator());
    CloseableIterator<Row> actions =
        Transaction.generateAppendActions(engine, state, statuses, context);
    txn.commit(engine, CloseableIterable.inMemoryIterable(actions));
  }
}
