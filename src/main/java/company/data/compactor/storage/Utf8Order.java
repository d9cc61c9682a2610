package company.data.compactor.storage;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * UTF-8 byte order of strings: the order S3 and the Delta protocol list names in, and the order
 * Parquet and Delta stats bound strings in.
 */
public final class Utf8Order {

  private Utf8Order() {}

  /** Compares {@code a} and {@code b} by their UTF-8 bytes, unsigned. */
  public static int compare(String a, String b) {
    return Arrays.compareUnsigned(
        a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
  }
}
