package company.data.compactor.compact.exec;

/**
 * Bounds and format of the DuckDB rewrite.
 *
 * @param memoryLimit DuckDB {@code memory_limit}, default {@code 1GB} (a Z-order sort of 2 GB of
 *     input then peaks near 1.5 GB RSS); larger sorts spill to scratch
 * @param threads DuckDB {@code threads}
 * @param compression Parquet codec of written files ({@code zstd} default, written at level 1, or
 *     {@code snappy})
 */
public record RewriteSettings(String memoryLimit, int threads, String compression) {

  /** 1 GB, every core, zstd. */
  public static RewriteSettings defaults() {
    return new RewriteSettings("1GB", Runtime.getRuntime().availableProcessors(), "zstd");
  }

  public RewriteSettings {
    if (!memoryLimit.matches("\\d+(\\.\\d+)?\\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)")) {
      throw new IllegalArgumentException("memory limit must look like 2GB, got " + memoryLimit);
    }
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be >= 1, got " + threads);
    }
    if (!compression.equals("zstd") && !compression.equals("snappy")) {
      throw new IllegalArgumentException("compression must be zstd or snappy, got " + compression);
    }
  }
}
