package company.data.compactor.testing;

import java.util.List;
import java.util.Map;

/**
 * One request breaking three rules, sent through every entry point to show they all go through the
 * one admission step: the same input gets the same refusal.
 */
public final class RefusedInputs {

  private RefusedInputs() {}

  /** A table URI with a dot segment, retention below the floor, five Z-order columns. */
  public static final Map<String, Object> INPUTS =
      Map.of(
          "table_uri",
          "tables/../t",
          "vacuum_retention_hours",
          24,
          "z_order_columns",
          List.of("a", "b", "c", "d", "e"));

  /** The same, as command-line flags. */
  public static final List<String> FLAGS =
      List.of(
          "--table-uri",
          "tables/../t",
          "--vacuum-retention-hours",
          "24",
          "--z-order-columns",
          "a,b,c,d,e");

  /** The rules broken, in the order admission names them. */
  public static final List<String> RULES =
      List.of(
          "table_uri=tables/../t: must not contain . or .. path segments; they are refused, never"
              + " resolved: name the table by its canonical path",
          "vacuum_retention_hours=24: must be >= 168 (7 days); shorter retention can delete files"
              + " that readers and time travel still need, and there is no override",
          "z_order_columns=[a,b,c,d,e]: at most 4 columns: each more column halves how well the"
              + " others cluster");

  /** The refusal every entry point reports (the schedule prefixes each key with its entry). */
  public static String message() {
    return message("");
  }

  /** The refusal with every key prefixed, as the schedule names its entries. */
  public static String message(String keyPrefix) {
    return "Invalid request, 3 rules broken: "
        + String.join("; ", RULES.stream().map(r -> keyPrefix + r).toList())
        + ". Nothing was read or written; fix the values and run again.";
  }
}
