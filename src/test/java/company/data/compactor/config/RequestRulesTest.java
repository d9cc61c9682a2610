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

    assertThat(found)
        .singleElement()
        .satisfies(
            v -> {
              assertThat(v.key()).isEqualTo("z_order_columns");
              assertThat(v.value()).isEqualTo("[nope]");
              assertThat(v.rule())
                  .isEqualTo(
                      "nope is not a column of the table (columns: event_id, customer_id, event_date);"
                          + " name existing columns, or pass an empty list for bin-packing only"
                          + " (--z-order-columns '' on the command line)");
            });
  }

  @Test
  void violationsAgainst_refusesPartitionColumns() {
    List<Violation> found =
        RequestRules.violationsAgainst(zOrder(List.of("event_date", "missing")), SCHEMA);

    assertThat(found)
        .extracting(Violation::rule)
        .containsExactly(
            "event_date is a partition column; every file holds one value of it, so it cannot be clustered",
            "missing is not a column of the table (columns: event_id, customer_id, event_date);"
                + " name existing columns, or pass an empty list for bin-packing only"
                + " (--z-order-columns '' on the command line)");
  }

  @Test
  void violationsAgainst_refusesColumnsWithoutAnOrder_namingTheType() {
    TableSchema schema =
        new TableSchema(
            List.of(
                new company.data.compactor.model.Column("tags", "array<string>", true),
                new company.data.compactor.model.Column("blob", "binary", true),
                new company.data.compactor.model.Column("price", "decimal(18,4)", true),
                new company.data.compactor.model.Column("seen", "timestamp", true),
                new company.data.compactor.model.Column("ok", "boolean", true)),
            List.of());

    List<Violation> found =
        RequestRules.violationsAgainst(zOrder(List.of("tags", "blob", "price", "seen")), schema);

    assertThat(found)
        .extracting(Violation::rule)
        .containsExactly(
            "tags has type array<string>, which has no order Delta keeps min/max statistics for, so clustering on it"
                + " cannot skip files; use a number, decimal, string, date, timestamp or boolean column",
            "blob has type binary, which has no order Delta keeps min/max statistics for, so clustering on it"
                + " cannot skip files; use a number, decimal, string, date, timestamp or boolean column");
    assertThat(RequestRules.violationsAgainst(zOrder(List.of("ok")), schema)).isEmpty();
  }

  @Test
  void violations_refuseMoreThanFourZOrderColumns_andANonPositiveGroupBound() {
    List<Violation> found = RequestRules.violations(zOrder(List.of("a", "b", "c", "d", "e")));

    assertThat(found)
        .extracting(Violation::rule)
        .containsExactly("at most 4 columns: each more column halves how well the others cluster");
  }
}
