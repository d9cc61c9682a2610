package company.data.compactor.compact.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import company.data.compactor.model.Column;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSchema;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ProjectionTest {

  private static final TableLocation TABLE = new TableLocation("file:/t");

  @Test
  void castsEachColumnToItsDeltaType_skipsPartitionColumns_andQuotesNames() {
    TableSchema schema =
        new TableSchema(
            List.of(
                new Column("ts", "timestamp", true),
                new Column("ntz", "timestamp_ntz", true),
                new Column("amount", "decimal(18,4)", true),
                new Column("we\"ird", "string", true),
                new Column("tags", "array", true),
                new Column("day", "date", true)),
            List.of("day"));

    Projection projection =
        Projection.of(TABLE, schema, Set.of("ts", "ntz", "amount", "we\"ird", "tags", "day"));

    assertThat(projection.selectList())
        .isEqualTo(
            "CAST(\"ts\" AS TIMESTAMPTZ) AS \"ts\", CAST(\"ntz\" AS TIMESTAMP) AS \"ntz\","
                + " CAST(\"amount\" AS DECIMAL(18,4)) AS \"amount\","
                + " CAST(\"we\"\"ird\" AS VARCHAR) AS \"we\"\"ird\", \"tags\" AS \"tags\"");
    assertThat(projection.columns())
        .extracting(Column::name)
        .containsExactly("ts", "ntz", "amount", "we\"ird", "tags");
  }

  @Test
  void inputColumnsMatchCaseInsensitively_andAreWrittenUnderTheSchemaSpelling() {
    TableSchema schema =
        new TableSchema(
            List.of(new Column("id", "long", true), new Column("UPPER", "string", true)),
            List.of());

    assertThat(Projection.of(TABLE, schema, Set.of("ID", "upper")).selectList())
        .isEqualTo("CAST(\"ID\" AS BIGINT) AS \"id\", CAST(\"upper\" AS VARCHAR) AS \"UPPER\"");
  }

  @Test
  void aColumnNoInputHas_isWrittenAsTypedNulls() {
    TableSchema schema =
        new TableSchema(
            List.of(new Column("id", "long", true), new Column("added_later", "integer", true)),
            List.of());

    assertThat(Projection.of(TABLE, schema, Set.of("id")).selectList())
        .isEqualTo("CAST(\"id\" AS BIGINT) AS \"id\", CAST(NULL AS INTEGER) AS \"added_later\"");
  }

  @Test
  void aNestedColumnNoInputHas_isRefused() {
    TableSchema schema =
        new TableSchema(
            List.of(new Column("id", "long", true), new Column("s", "struct", true)), List.of());

    assertThatThrownBy(() -> Projection.of(TABLE, schema, Set.of("id")))
        .hasMessageContaining("nested column s is in the schema but in none of the files");
  }
}
