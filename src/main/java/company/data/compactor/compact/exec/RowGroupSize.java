package company.data.compactor.compact.exec;

/**
 * Rows per Parquet row group of a rewrite. DuckDB closes an output file only after the row group
 * that crosses the target size, so a file overshoots the target by up to one row group: with its
 * default of 122,880 rows a 1 MB target gave one 2.4 MB file plus a sliver. Row groups are
 * therefore sized to about an eighth of the rows the target holds, estimated from the inputs' bytes
 * per row (outputs compress at least as well, so they hold more rows per byte and the overshoot
 * stays under an eighth), never above DuckDB's default (large targets keep it) and never below one
 * vector of 2,048 rows.
 */
final class RowGroupSize {

  /** DuckDB's default rows per row group. */
  static final long DEFAULT_ROWS = 122_880;

  /** DuckDB's vector size; row groups are whole vectors. */
  static final long VECTOR_ROWS = 2_048;

  /** Row groups per target-sized file, at the inputs' density. */
  static final long GROUPS_PER_FILE = 8;

  private RowGroupSize() {}

  /**
   * @param inputRows rows of the rewrite's inputs
   * @param inputBytes their size in bytes
   */
  static long rows(long targetFileSizeBytes, long inputRows, long inputBytes) {
    if (inputRows <= 0 || inputBytes <= 0) {
      return DEFAULT_ROWS;
    }
    double rowsPerTarget = (double) targetFileSizeBytes * inputRows / inputBytes;
    long rows = (long) (rowsPerTarget / GROUPS_PER_FILE) / VECTOR_ROWS * VECTOR_ROWS;
    return Math.max(VECTOR_ROWS, Math.min(DEFAULT_ROWS, rows));
  }
}
