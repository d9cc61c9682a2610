package company.data.compactor.report;

import java.util.List;

/**
 * {@code zorder_skipping}: for sampled point values of each Z-order column, the average fraction of
 * a rewritten partition's files whose min/max statistics could hold the value, before and after the
 * rewrite (lower is better; 1.0 means every lookup reads every file).
 *
 * @param columns the Z-order columns
 * @param fileFractionBefore the average over columns before
 * @param fileFractionAfter the average over columns after
 * @param perColumn each column's figures
 */
public record ZOrderSkippingReport(
    List<String> columns,
    double fileFractionBefore,
    double fileFractionAfter,
    List<Column> perColumn) {

  /**
   * One column.
   *
   * @param column its name
   * @param sampledValues point values sampled from the recorded bounds
   * @param fileFractionBefore average fraction of files a lookup could not skip, before
   * @param fileFractionAfter the same, after
   */
  public record Column(
      String column, int sampledValues, double fileFractionBefore, double fileFractionAfter) {}

  public ZOrderSkippingReport {
    columns = List.copyOf(columns);
    perColumn = List.copyOf(perColumn);
  }
}
