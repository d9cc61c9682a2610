package company.data.compactor.compact.exec;

/**
 * Aggregates of one leaf column over one written file, as Java values ready for Delta's stats JSON.
 *
 * @param leaf the leaf column and its path
 * @param min the minimum or null when unknown/not collected: Long for integer types and for
 *     timestamps (epoch microseconds), Double, BigDecimal, String (dates as yyyy-MM-dd)
 * @param max the maximum, same types
 * @param nullCount rows where the leaf is NULL (including rows where a struct above it is NULL)
 */
record ColumnStats(StatsColumns.Leaf leaf, Object min, Object max, long nullCount) {}
