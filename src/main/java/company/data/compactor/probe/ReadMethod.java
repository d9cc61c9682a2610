package company.data.compactor.probe;

/** How a probe pass gets at the sampled files. */
public enum ReadMethod {
  /** Local storage: DuckDB reads the table's own files where they are; nothing is copied. */
  IN_PLACE,
  /**
   * Object stores: the sample is fetched concurrently into scratch, then read there (DuckDB here
   * has no S3 reader).
   */
  DOWNLOAD
}
