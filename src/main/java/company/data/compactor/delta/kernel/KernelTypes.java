package company.data.compactor.delta.kernel;

import company.data.compactor.model.Column;
import company.data.compactor.model.ColumnMappingMode;
import company.data.compactor.model.TableSchema;
import io.delta.kernel.types.ArrayType;
import io.delta.kernel.types.BasePrimitiveType;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.DecimalType;
import io.delta.kernel.types.FieldMetadata;
import io.delta.kernel.types.MapType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import java.util.List;
import java.util.OptionalInt;

/** Translation between kernel schemas and the model's {@link TableSchema}. */
final class KernelTypes {

  private KernelTypes() {}

  /** Column mapping's physical name of a field, in its metadata. */
  static final String PHYSICAL_NAME_KEY = "delta.columnMapping.physicalName";

  /** Column mapping's field id of a field, in its metadata. */
  static final String ID_KEY = "delta.columnMapping.id";

  static TableSchema toModel(
      StructType schema, List<String> partitionColumns, ColumnMappingMode mode) {
    return new TableSchema(columns(schema, mode), partitionColumns);
  }

  /**
   * The fields of {@code struct} as columns, a struct's own fields nested; under column mapping
   * each with the physical name and field id its metadata holds (a field without them, as in a
   * table upgraded to column mapping before Delta assigned them, keeps its name and no id).
   */
  private static List<Column> columns(StructType struct, ColumnMappingMode mode) {
    return struct.fields().stream()
        .map(
            f -> {
              FieldMetadata metadata = f.getMetadata();
              String physical =
                  mode.isMapped() && metadata.contains(PHYSICAL_NAME_KEY)
                      ? metadata.getString(PHYSICAL_NAME_KEY)
                      : f.getName();
              OptionalInt id =
                  mode.isMapped() && metadata.contains(ID_KEY)
                      ? OptionalInt.of(Math.toIntExact(metadata.getLong(ID_KEY)))
                      : OptionalInt.empty();
              return new Column(
                  f.getName(),
                  typeName(f.getDataType()),
                  f.isNullable(),
                  f.getDataType() instanceof StructType nested ? columns(nested, mode) : List.of(),
                  physical,
                  id);
            })
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
