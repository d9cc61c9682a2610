package company.data.compactor.config;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.error.Violation;
import company.data.compactor.model.Column;
import company.data.compactor.model.TableSchema;
import java.util.List;
import org.junit.jupiter.api.Test;

class RequestRulesTest {

  private static final TableSchema SCHEMA =
      new TableSchema(
          List.of(
              new Column("event_id", "string", true),
              new Column("customer_id", "string", true),
              new Column("event_date", "string", true)),
          List.of("event_date"));

  private static MaintenanceRequest zOrder(List<String> columns) {
    return MaintenanceRequest.defaults().withZOrderColumns(columns);
  }

  @Test
  void violationsAgainst_acceptsExistingNonPartitionColumns() {
    assertThat(RequestRules.violationsAgainst(zOrder(List.of("customer_id", "event_id")), SCHEMA))
        .isEmpty();
    assertThat(RequestRules.violationsAgainst(zOrder(List.of()), SCHEMA)).isEmpty();
  }

  @Test
  void violationsAgainst_namesUnknownColumnsAndListsTheKnownOnes() {
    List<Violation> found = RequestRules.violationsAgainst(zOrder(List.of("nope")), SCHEMA);

    assertThat(found).singleElement().satisfies(v -> {
      assertThat(v.key()).isEqualTo("z_order_columns");
      assertThat(v.value()).isEqualTo("[nope]");
      assertThat(v.rule())
          .isEqualTo(
              "nope is not a column of the table (columns: event_id, customer_id, event_date);"
                  + " name existing columns, or pass an empty list for bin-packing only");
    });
  }

  @Test
  void violationsAgainst_refusesPartitionColumns() {
    List<Violation> found =
        RequestRules.violationsAgainst(zOrder(List.of("event_date", "missing")), SCHEMA);

    assertThat(found).extracting(Violation::rule)
        .containsExactly(
            "event_date is a partition column; every file holds one value of it, so it cannot be clustered",
            "missing is not a column of the table (columns: event_id, customer_id, event_date);"
                + " name existing columns, or pass an empty list for bin-packing only");
  }
}
