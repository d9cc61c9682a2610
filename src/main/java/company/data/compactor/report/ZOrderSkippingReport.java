package company.data.compactor.report;

import java.util.List;

/**
 * {@code zorder_skipping}: for sampled point values of each Z-order column, the average fraction of
 * a rewritten partition's files whose min/max statistics could hold the value, before and after the
 * rewrite (lower is better; 1.0 means every lookup reads every file), and, since the fraction rises
 * when a partition collapses to one file, the files and bytes a point lookup reads across the
 * rewritten partitions before and after (averaged over the sampled values and the columns).
 *
 * @param columns the Z-order columns
 * @param fileFractionBefore the average over columns before
 * @param fileFractionAfter the average over columns after
 * @param perColumn each column's figures
 * @param pointLookupFilesBefore files a point lookup reads, before (2 decimals)
 * @param pointLookupFilesAfter the same after
 * @param pointLookupBytesBefore bytes of those files, before (whole bytes)
 * @param pointLookupBytesAfter the same after
 */
public record ZOrderSkippingReport(
    List<String> columns,
    double fileFractionBefore,
    double fileFractionAfter,
    List<Column> perColumn,
    double pointLookupFilesBefore,
    double pointLookupFilesAfter,
    long pointLookupBytesBefore,
    long pointLookupBytesAfter) {

  /**
   * One column.
   *
   * @param column its name
   * @param sampledValues point values sampled from the recorded bounds
   * @param fileFractionBefore average fraction of files a lookup could not skip, before
   * @param fileFractionAfter the same, after
   * @param pointLookupFilesBefore files a point lookup on this column reads, before
   * @param pointLookupFilesAfter the same, after
   * @param pointLookupBytesBefore bytes of those files, before
   * @param pointLookupBytesAfter the same, after
   */
  public record Column(
      String column,
      int sampledValues,
      double fileFractionBefore,
      double fileFractionAfter,
      double pointLookupFilesBefore,
      double pointLookupFilesAfter,
      long pointLookupBytesBefore,
      long pointLookupBytesAfter) {}

  public ZOrderSkippingReport {
    columns = List.copyOf(columns);
    perColumn = List.copyOf(perColumn);
  }

  /** The summary's sentence: files and bytes a point lookup reads, next to the fraction. */
  public String sentence() {
    return String.format(
        java.util.Locale.ROOT,
        "Z-order by %s: a point lookup reads %.1f -> %.1f files (%s -> %s) of the rewritten"
            + " partitions; file fraction %.2f -> %.2f.",
        String.join(", ", columns),
        pointLookupFilesBefore,
        pointLookupFilesAfter,
        human(pointLookupBytesBefore),
        human(pointLookupBytesAfter),
        fileFractionBefore,
        fileFractionAfter);
  }

  /** Bytes as B, KB or MB (1024-based), one decimal. */
  static String human(long bytes) {
    if (bytes < 1024) {
      return bytes + " B";
    }
    if (bytes < 1024 * 1024) {
      return String.format(java.util.Locale.ROOT, "%.1f KB", bytes / 1024.0);
    }
    return String.format(java.util.Locale.ROOT, "%.1f MB", bytes / (1024.0 * 1024.0));
  }
}
