package company.data.compactor.compact.exec;

import java.nio.charset.StandardCharsets;

/** The URI form a Delta log records a relative data-file path in. */
final class LogPaths {

  private LogPaths() {}

  /**
   * Percent-encodes every byte of {@code relative}'s UTF-8 form except unreserved characters,
   * {@code /} and {@code =}: readers URI-decode {@code add.path}, so a Hive escape such as {@code
   * %2F} in a partition directory is logged as {@code %252F}, a space as {@code %20}.
   */
  static String encode(String relative) {
    StringBuilder out = new StringBuilder(relative.length());
    for (byte b : relative.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xFF;
      boolean plain =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '-'
              || c == '.'
              || c == '_'
              || c == '~'
              || c == '/'
              || c == '=';
      if (plain) {
        out.append((char) c);
      } else {
        out.append('%').append(String.format("%02X", c));
      }
    }
    return out.toString();
  }
}
