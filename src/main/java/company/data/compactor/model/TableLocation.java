package company.data.compactor.model;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;

/**
 * Where a Delta table lives: a local directory ({@code file:}) or an S3 prefix ({@code s3://}).
 *
 * <p>{@link #uri()} is the normalised form used everywhere else: {@code file:/absolute/path} for
 * local tables (the form Delta kernel and Hadoop print) and {@code s3://bucket/key} for S3, never
 * with a trailing slash.
 *
 * @param uri normalised table URI
 */
public record TableLocation(String uri) {

  /** URI schemes the compactor can reach. */
  public enum Scheme {
    FILE,
    S3
  }

  public TableLocation {
    Objects.requireNonNull(uri, "uri");
  }

  /**
   * Parses what a user typed: a relative or absolute local path, a {@code file:} URI or an
   * {@code s3://bucket/prefix} URI. A relative path resolves against {@code workDir}.
   *
   * @throws IllegalArgumentException when the value is blank, has an unsupported scheme or an S3
   *     URI lacks a bucket
   */
  public static TableLocation parse(String raw, Path workDir) {
    if (raw == null || raw.isBlank()) {
      throw new IllegalArgumentException("must not be blank");
    }
    String value = raw.strip();
    String lower = value.toLowerCase(Locale.ROOT);
    if (lower.startsWith("s3://") || lower.startsWith("s3a://")) {
      String rest = value.substring(value.indexOf("://") + 3);
      while (rest.endsWith("/")) {
        rest = rest.substring(0, rest.length() - 1);
      }
      int slash = rest.indexOf('/');
      String bucket = slash < 0 ? rest : rest.substring(0, slash);
      if (bucket.isEmpty()) {
        throw new IllegalArgumentException("an s3:// URI needs a bucket, as in s3://bucket/path");
      }
      return new TableLocation("s3://" + rest);
    }
    if (lower.startsWith("file:")) {
      value = value.substring("file:".length());
      if (value.startsWith("//")) {
        // file:///abs -> /abs ; file://host/abs is not a local path
        value = value.substring(2);
        if (!value.startsWith("/")) {
          throw new IllegalArgumentException("a file: URI must name a local absolute path");
        }
      }
    } else if (value.matches("^[A-Za-z][A-Za-z0-9+.-]*://.*")) {
      throw new IllegalArgumentException(
          "unsupported scheme; use a local path, file:/path or s3://bucket/path");
    }
    Path path = workDir.resolve(value).toAbsolutePath().normalize();
    return new TableLocation("file:" + path);
  }

  /** Which storage this location lives on. */
  public Scheme scheme() {
    return uri.startsWith("s3://") ? Scheme.S3 : Scheme.FILE;
  }

  /** The local directory of a {@code file:} location. */
  public Path localPath() {
    if (scheme() != Scheme.FILE) {
      throw new IllegalStateException("not a local table: " + uri);
    }
    return Path.of(uri.substring("file:".length()));
  }

  /** The URI of a child, e.g. {@code child("_delta_log")}. */
  public String child(String relative) {
    return uri + "/" + relative;
  }

  @Override
  public String toString() {
    return uri;
  }
}
