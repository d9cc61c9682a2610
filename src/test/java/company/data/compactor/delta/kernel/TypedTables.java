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
      TableLocation location, StructType schema, String partitionColumn, Map<String, String> properties) {
    Transaction txn =
        TableManager.buildCreateTableTransaction(location.uri(), schema, "test")
            .withTableProperties(properties)
            .withDataLayoutSpec(DataLayoutSpec.partitioned(List.of(new Column(partitionColumn))))
            .build(engine);
    txn.commit(engine, CloseableIterable.emptyIterable());
  }

  /**
   * Writes {@code select} (data columns only, named as the schema) to one Parquet file in the
   * partition and commits it.
   */
  public void append(TableLocation location, String partitionColumn, String value, String select, String name)
      throws Exception {
    Path dir = location.localPath().resolve(partitionColumn + "=" + value);
    Files.createDirectories(dir);
    Path file = dir.resolve(name + ".parquet");
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
      s.execute("SET TimeZone = 'UTC'");
      s.execute("COPY (" + select + ") TO '" + file + "' (FORMAT parquet)");
    }
    var snapshot = TableManager.loadSnapshot(location.uri()).build(engine);
    Transaction txn = snapshot.buildUpdateTableTransaction("test", Operation.WRITE).build(engine);
    Row state = txn.getTransactionState(engine);
    Map<String, Literal> partition = Map.of(partitionColumn, Literal.ofString(value));
    DataWriteContext context = Transaction.getWriteContext(engine, state, partition);
    DataFileStatus status =
        new DataFileStatus(LocalStorage.toStoragePath(file), Files.size(file), Files.getLastModifiedTime(file).toMillis(), Optional.empty());
    CloseableIterator<DataFileStatus> statuses = io.delta.kernel.internal.util.Utils.toCloseableIterator(List.of(status).iterator());
    CloseableIterator<Row> actions = Transaction.generateAppendActions(engine, state, statuses, context);
    txn.commit(engine, CloseableIterable.inMemoryIterable(actions));
  }
}
