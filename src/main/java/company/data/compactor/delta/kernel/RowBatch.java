package company.data.compactor.delta.kernel;

import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.types.BooleanType;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.DateType;
import io.delta.kernel.types.DoubleType;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * An in-memory {@link ColumnarBatch} of rows given as Java values, for the small tables the
 * compactor writes itself (demo and tests). Supports string, integer, long, double, boolean and
 * date columns.
 */
final class RowBatch implements ColumnarBatch {

  private final StructType schema;
  private final List<ColumnVector> vectors;
  private final int size;

  private RowBatch(StructType schema, List<ColumnVector> vectors, int size) {
    this.schema = schema;
    this.vectors = List.copyOf(vectors);
    this.size = size;
  }

  static RowBatch of(StructType schema, List<List<Object>> rows) {
    List<ColumnVector> vectors = new ArrayList<>();
    for (int c = 0; c < schema.length(); c++) {
      Object[] values = new Object[rows.size()];
      for (int r = 0; r < rows.size(); r++) {
        values[r] = rows.get(r).get(c);
      }
      vectors.add(new ValueVector(schema.at(c).getDataType(), values));
    }
    return new RowBatch(schema, vectors, rows.size());
  }

  @Override
  public StructType getSchema() {
    return schema;
  }

  @Override
  public ColumnVector getColumnVector(int ordinal) {
    return vectors.get(ordinal);
  }

  @Override
  public int getSize() {
    return size;
  }

  @Override
  public ColumnarBatch withDeletedColumnAt(int ordinal) {
    List<StructField> fields = new ArrayList<>(schema.fields());
    fields.remove(ordinal);
    List<ColumnVector> kept = new ArrayList<>(vectors);
    kept.remove(ordinal);
    return new RowBatch(new StructType(fields), kept, size);
  }

  @Override
  public ColumnarBatch withNewColumn(int ordinal, StructField field, ColumnVector vector) {
    List<StructField> fields = new ArrayList<>(schema.fields());
    fields.add(ordinal, field);
    List<ColumnVector> all = new ArrayList<>(vectors);
    all.add(ordinal, vector);
    return new RowBatch(new StructType(fields), all, size);
  }

  /** One column of boxed Java values. */
  private record ValueVector(DataType type, Object[] values) implements ColumnVector {

    ValueVector {
      if (!(type instanceof StringType
          || type instanceof IntegerType
          || type instanceof LongType
          || type instanceof DoubleType
          || type instanceof BooleanType
          || type instanceof DateType)) {
        throw new IllegalArgumentException("unsupported column type for writing: " + type);
      }
    }

    @Override
    public DataType getDataType() {
      return type;
    }

    @Override
    public int getSize() {
      return values.length;
    }

    @Override
    public void close() {}

    @Override
    public boolean isNullAt(int rowId) {
      return values[rowId] == null;
    }

    @Override
    public boolean getBoolean(int rowId) {
      return (Boolean) values[rowId];
    }

    @Override
    public int getInt(int rowId) {
      Object value = values[rowId];
      return value instanceof LocalDate date
          ? (int) date.toEpochDay()
          : ((Number) value).intValue();
    }

    @Override
    public long getLong(int rowId) {
      return ((Number) values[rowId]).longValue();
    }

    @Override
    public double getDouble(int rowId) {
      return ((Number) values[rowId]).doubleValue();
    }

    @Override
    public String getString(int rowId) {
      return (String) values[rowId];
    }
  }
}
