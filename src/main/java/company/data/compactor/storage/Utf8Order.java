package company.data.compactor.storage;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** UTF-8 byte order of names, the order S3 and the Delta protocol list in. */
final class Utf8Order {

  private Utf8Order() {}

  static int compare(String a, String b) {
    return Arrays.compareUnsigned(
        a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
  }
}
