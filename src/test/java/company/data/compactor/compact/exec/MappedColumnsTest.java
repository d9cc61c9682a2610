package company.data.compactor.compact.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import company.data.compactor.model.Column;
import company.data.compactor.model.ColumnMappingMode;
import company.data.compactor.model.TableSchema;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** The pure parts of column mapping: field ids, statistics paths, matching a footer's fields. */
class MappedColumnsTest {

  private static Column mapped(String name, String type, String physical, int id) {
    return new Column(name, type, true, List.of(), physical, OptionalInt.of(id));
  }

  private static final Column ID = mapped("id", "long", "col-1", 1);
  private static final Column NESTED =
      new Column(
          "s",
          "struct",
          true,
          List.of(mapped("x", "integer", "col-3", 3), mapped("y", "string", "col-4", 4)),
          "col-2",
          OptionalInt.of(2));
  private static final Column PART = mapped("p", "string", "col-5", 5);
  private static final TableSchema SCHEMA =
      new TableSchema(List.of(ID, NESTED, PART), List.of("p"));

  @Test
  void fieldIds_nameEveryDataColumnAndStructFieldByPhysicalName_partitionColumnsLeftOut() {
    assertThat(MappedProjection.fieldIds(SCHEMA))
        .isEqualTo(
            ", FIELD_IDS {\"col-1\": 1, \"col-2\": {__duckdb_field_id: 2, \"col-3\": 3,"
                + " \"col-4\": 4}}");
  }

  @Test
  void fieldIds_areLeftOutWhenNoColumnHasOne() {
    TableSchema plain =
        new TableSchema(
            List.of(new Column("id", "long", true), new Column("p", "string", true)), List.of("p"));
    assertThat(MappedProjection.fieldIds(plain)).isEmpty();
  }

  @Test
  void statsLeaves_arePhysicalPaths_selectedByTheLogicalNamesOfDataSkippingStatsColumns() {
    List<StatsColumns.Leaf> leaves =
        StatsColumns.of(List.of(ID, NESTED), Map.of("delta.dataSkippingStatsColumns", "s.y, id"));

    assertThat(leaves)
        .extracting(StatsColumns.Leaf::dotted)
        .containsExactly("col-1", "col-2.col-4");
    assertThat(leaves)
        .extracting(l -> String.join(".", l.logicalPath()))
        .containsExactly("id", "s.y");
  }

  @Test
  void match_byPhysicalNameInNameMode_byFieldIdInIdMode_neverByLogicalName() {
    FooterField logical = new FooterField("id", OptionalInt.empty(), "BIGINT", List.of());
    FooterField physicalWrongId = new FooterField("COL-1", OptionalInt.of(9), "BIGINT", List.of());
    FooterField renamedRightId =
        new FooterField("whatever", OptionalInt.of(1), "BIGINT", List.of());
    List<FooterField> fields = List.of(logical, physicalWrongId, renamedRightId);

    assertThat(MappedProjection.match(ID, fields, ColumnMappingMode.NAME))
        .contains(physicalWrongId);
    assertThat(MappedProjection.match(ID, fields, ColumnMappingMode.ID)).contains(renamedRightId);
    assertThat(MappedProjection.match(ID, List.of(logical), ColumnMappingMode.NAME)).isEmpty();
  }

  @Test
  void groups_writeAMissingStructAsTypedNull_andRebuildAPresentOneByPhysicalNames() {
    FooterField id = new FooterField("col-1", OptionalInt.of(1), "BIGINT", List.of());
    FooterField struct =
        new FooterField(
            "col-2",
            OptionalInt.of(2),
            "STRUCT(\"col-4\" VARCHAR, old VARCHAR)",
            List.of(
                new FooterField("col-4", OptionalInt.of(4), "VARCHAR", List.of()),
                new FooterField("old", OptionalInt.of(7), "VARCHAR", List.of())));
    Path a = Path.of("/a.parquet");
    Path b = Path.of("/b.parquet");

    List<MappedProjection.Group> groups =
        MappedProjection.groups(
            company.data.compactor.model.TableLocation.parse("/t", Path.of("/")),
            SCHEMA,
            ColumnMappingMode.NAME,
            new java.util.LinkedHashMap<>(Map.of(a, List.of(id, struct))));

    assertThat(groups).singleElement().satisfies(g -> assertThat(g.files()).containsExactly(a));
    assertThat(groups.get(0).selectList())
        .isEqualTo(
            "CAST(\"col-1\" AS BIGINT) AS \"col-1\", CASE WHEN \"col-2\" IS NULL THEN NULL ELSE"
                + " struct_pack(\"col-3\" := CAST(NULL AS INTEGER), \"col-4\" :="
                + " CAST(struct_extract(\"col-2\", 'col-4') AS VARCHAR)) END AS \"col-2\"");
    assertThat(
            MappedProjection.groups(
                    company.data.compactor.model.TableLocation.parse("/t", Path.of("/")),
                    SCHEMA,
                    ColumnMappingMode.NAME,
                    Map.of(b, List.of(id)))
                .get(0)
                .selectList())
        .endsWith("CAST(NULL AS STRUCT(\"col-3\" INTEGER, \"col-4\" VARCHAR)) AS \"col-2\"");
  }

  @Test
  void aStructInsideAListOfAMappedTable_isRefusedByColumnName() {
    Column list = mapped("l", "array", "col-9", 9);
    TableSchema schema = new TableSchema(List.of(list), List.of());
    FooterField field =
        new FooterField("col-9", OptionalInt.of(9), "STRUCT(a INTEGER)[]", List.of());

    assertThatThrownBy(
            () ->
                MappedProjection.groups(
                    company.data.compactor.model.TableLocation.parse("/t", Path.of("/")),
                    schema,
                    ColumnMappingMode.NAME,
                    Map.of(Path.of("/a.parquet"), List.of(field))))
        .hasMessageContaining("column l holds a struct inside an array or map");
  }

  @Test
  void mode_isReadFromTheTableProperty() {
    assertThat(ColumnMappingMode.of(Map.of())).isEqualTo(ColumnMappingMode.NONE);
    assertThat(ColumnMappingMode.of(Map.of("delta.columnMapping.mode", "Name")))
        .isEqualTo(ColumnMappingMode.NAME);
    assertThat(ColumnMappingMode.of(Map.of("delta.columnMapping.mode", "id")))
        .isEqualTo(ColumnMappingMode.ID);
    assertThatThrownBy(() -> ColumnMappingMode.of(Map.of("delta.columnMapping.mode", "both")))
        .hasMessageContaining("which Delta does not define");
  }
}
