package company.data.compactor.model;

/** Conversions between the request's megabytes and bytes. One MB here is 1,048,576 bytes. */
public final class ByteSizes {

  /** Bytes in one MB as the request and report count it. */
  public static final long BYTES_PER_MB = 1024L * 1024L;

  private ByteSizes() {}

  /** Whole bytes in {@code mb} megabytes. */
  public static long mbToBytes(double mb) {
    return Math.round(mb * BYTES_PER_MB);
  }

  /** Megabytes in {@code bytes}, unrounded. */
  public static double bytesToMb(long bytes) {
    return bytes / (double) BYTES_PER_MB;
  }
}
