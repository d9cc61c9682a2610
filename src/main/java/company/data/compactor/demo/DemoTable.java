package company.data.compactor.demo;

import company.data.compactor.model.Column;
import company.data.compactor.model.PartitionValues;
import company.data.compactor.model.TableSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The blueprint's synthetic micro-batch table: {@value #APPENDS} appends of {@value
 * #ROWS_PER_APPEND} rows, round robin over three {@code event_date} partitions. Pure: it only says
 * what to write; {@link DemoSeeder} writes it.
 */
public final class DemoTable {

  public static final int APPENDS = 30;
  public static final int ROWS_PER_APPEND = 50;
  public static final List<String> DATES = List.of("2026-10-17", "2026-10-18", "2026-10-19");
  public static final List<String> EVENT_TYPES = List.of("click", "purchase", "search");
  public static final int CUSTOMERS = 40;

  /** Table property that marks a table as seeded by the compactor, so a re-seed may replace it. */
  public static final String DEMO_PROPERTY = "compactor.demo";

  /** {@code event_id, customer_id, event_type, amount double, event_date} partitioned by date. */
  public static final TableSchema SCHEMA =
      new TableSchema(
          List.of(
              new Column("event_id", "string", true),
              new Column("customer_id", "string", true),
              new Column("event_type", "string", true),
              new Column("amount", "double", true),
              new Column("event_date", "string", true)),
          List.of("event_date"));

  private DemoTable() {}

  /** Table properties of the demo table. */
  public static Map<String, String> properties() {
    return Map.of(DEMO_PROPERTY, "true");
  }

  /** The partition append {@code i} (0-based) writes to. */
  public static PartitionValues partitionOf(int append) {
    return new PartitionValues(Map.of("event_date", DATES.get(append % DATES.size())));
  }

  /** The rows of append {@code i} (0-based), values in schema order. */
  public static List<List<Object>> rowsOf(int append) {
    String date = DATES.get(append % DATES.size());
    List<List<Object>> rows = new ArrayList<>(ROWS_PER_APPEND);
    for (int r = 0; r < ROWS_PER_APPEND; r++) {
      rows.add(
          List.of(
              // Not String.format: 3,000 of its parses took ~35 ms of the demo's start.
              "EVT_" + append + "_" + zeroPadded(r, 5),
              "CUST_" + zeroPadded((append * 10 + r) % CUSTOMERS, 4),
              EVENT_TYPES.get(r % EVENT_TYPES.size()),
              amount(r),
              date));
    }
    return rows;
  }

  /**
   * A non-negative {@code value} with leading zeros up to {@code width} digits, as {@code %0Nd}.
   */
  static String zeroPadded(int value, int width) {
    String digits = Integer.toString(value);
    return digits.length() >= width ? digits : "0".repeat(width - digits.length()) + digits;
  }

  /** {@code ((r % 25) + 1) * 3.75}. */
  public static double amount(int row) {
    return ((row % 25) + 1) * 3.75;
  }

  /** Rows in the whole demo table. */
  public static long totalRows() {
    return (long) APPENDS * ROWS_PER_APPEND;
  }

  /** The sum of {@code amount} over the whole demo table. */
  public static double totalAmount() {
    double perAppend = 0;
    for (int r = 0; r < ROWS_PER_APPEND; r++) {
      perAppend += amount(r);
    }
    return perAppend * APPENDS;
  }
}
