package company.data.compactor.delta.kernel;

import company.data.compactor.model.Column;
import company.data.compactor.model.TableSchema;
import io.delta.kernel.types.ArrayType;
import io.delta.kernel.types.BasePrimitiveType;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.DecimalType;
import io.delta.kernel.types.MapType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import java.util.List;

/** Translation between kernel schemas and the model's {@link TableSchema}. */
final class KernelTypes {

  private KernelTypes() {}

  static TableSchema toModel(StructType schema, List<String> partitionColumns) {
    return new TableSchema(columns(schema), partitionColumns);
  }

  /** The fields of {@code struct} as columns, a struct's own fields nested. */
  private static List<Column> columns(StructType struct) {
    return struct.fields().stream()
        .map(
            f ->
                new Column(
                    f.getName(),
                    typeName(f.getDataType()),
                    f.isNullable(),
                    f.getDataType() instanceof StructType nested ? columns(nested) : List.of()))
        .toList();
  }

  /** Delta's type name: {@code string}, {@code decimal(10,2)}, {@code struct}, ... */
  static String typeName(DataType type) {
    if (type instanceof DecimalType d) {
      return "decimal(" + d.getPrecision() + "," + d.getScale() + ")";
    }
    if (type instanceof StructType) {
      return "struct";
    }
    if (type instanceof ArrayType) {
      return "array";
    }
    if (type instanceof MapType) {
      return "map";
    }
    return type.toString();
  }

  /** A kernel schema of primitive columns, for tables the compactor creates (demo, tests). */
  static StructType toKernel(TableSchema schema) {
    StructType struct = new StructType();
    for (Column column : schema.columns()) {
      if (!BasePrimitiveType.isPrimitiveType(column.type())) {
        throw new IllegalArgumentException(
            "cannot create a column of type " + column.type() + ": " + column.name());
      }
      struct =
          struct.add(
              new StructField(
                  column.name(),
                  BasePrimitiveType.createPrimitive(column.type()),
                  column.nullable()));
    }
    return struct;
  }
}
