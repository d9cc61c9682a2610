package company.data.compactor.compact.exec;

import company.data.compactor.model.Column;

/**
 * Aggregates of one column over one written file, as Java values ready for Delta's stats JSON.
 *
 * @param column the column
 * @param min the minimum or null when unknown/not collected: Long for integer types and for
 *     timestamps (epoch microseconds), Double, BigDecimal, String (dates as yyyy-MM-dd)
 * @param max the maximum, same types
 * @param nullCount rows where the column is NULL
 */
record ColumnStats(Column column, Object min, Object max, long nullCount) {}
