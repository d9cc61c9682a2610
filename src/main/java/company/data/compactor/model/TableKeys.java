package company.data.compactor.model;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Stable keys derived from a table's normalised URI, shared by the lease and telemetry stores. The
 * slug keeps the URI readable ({@code s3://bucket/tables/events} becomes {@code
 * s3_bucket_tables_events}) and ends with eight hex digits of the URI's SHA-256, so two URIs that
 * read alike ({@code a-b}, {@code a_b}) never share a key.
 */
public final class TableKeys {

  /**
   * The hidden directory below a table root where the compactor keeps its own records (leases). Its
   * {@code _} prefix hides it from Delta readers and every vacuum; demo seeding keeps it.
   */
  public static final String COMPACTOR_DIRECTORY = "_compactor";

  /** Readable part of a slug is cut here; the hash keeps it unique. */
  static final int MAX_READABLE_CHARS = 120;

  private TableKeys() {}

  /** The slug of {@code location}: readable part, underscore, 8 hex digits. */
  public static String slug(TableLocation location) {
    String readable =
        location
            .uri()
            .toLowerCase(Locale.ROOT)
            .replaceAll("[^a-z0-9]+", "_")
            .replaceAll("^_+|_+$", "");
    if (readable.length() > MAX_READABLE_CHARS) {
      readable = readable.substring(0, MAX_READABLE_CHARS);
    }
    return readable + "_" + shortHash(location.uri());
  }

  /** The key of the table's maintenance history and lease: {@code delta_compaction_<slug>}. */
  public static String compactionKey(TableLocation location) {
    return "delta_compaction_" + slug(location);
  }

  private static String shortHash(String text) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 4);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JDK", e);
    }
  }
}
