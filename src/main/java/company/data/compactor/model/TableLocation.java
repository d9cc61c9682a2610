package company.data.compactor.model;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Where a Delta table lives: a local directory ({@code file:}) or an S3 prefix ({@code s3://}).
 *
 * <p>{@link #uri()} is the canonical form used everywhere else (allowlist, lease and telemetry
 * keys, storage, kernel): {@code file:/absolute/path} for local tables (the form Delta kernel and
 * Hadoop print) and {@code s3://bucket/key} for S3, never with a trailing slash. It splits into
 * {@link #scheme()}, {@link #root()} (the bucket, or {@code /}) and {@link #key()}.
 *
 * <p>{@link #parse} refuses, and never normalises, what could make two spellings name one table or
 * let a value climb out of a prefix: {@code .} and {@code ..} segments (also percent-encoded, as
 * {@code %2e%2e}), empty segments ({@code a//b}), percent-encoded separators, backslashes and
 * control characters. This holds for local paths too, relative or absolute: {@code ../t} and {@code
 * /data/../t} are refused like {@code s3://b/t/../u}. A relative path without such segments still
 * resolves against the work directory.
 *
 * @param uri canonical table URI
 */
public record TableLocation(String uri) {

  /** URI schemes the compactor can reach. */
  public enum Scheme {
    FILE,
    S3
  }

  /** Rule: the value must not be blank. */
  public static final String RULE_BLANK = "must not be blank";

  /** Rule: no control characters; the position is appended. */
  public static final String RULE_CONTROL = "must not contain control characters";

  /** Rule: no backslashes. */
  public static final String RULE_BACKSLASH =
      "must not contain backslashes; separate path segments with /";

  /** Rule: no percent-encoded separators. */
  public static final String RULE_ENCODED_SEPARATOR =
      "must not contain percent-encoded / or \\ (%2f, %5c)";

  /** Rule: no dot segments. */
  public static final String RULE_DOT_SEGMENT =
      "must not contain . or .. path segments; they are refused, never resolved: name the table by its"
          + " canonical path";

  /** Rule: no percent-encoded dot segments. */
  public static final String RULE_ENCODED_DOT_SEGMENT =
      "must not contain percent-encoded . or .. path segments (%2e)";

  /** Rule: no empty segments. */
  public static final String RULE_EMPTY_SEGMENT = "must not contain empty path segments (//)";

  /** Rule: a known scheme. */
  public static final String RULE_SCHEME =
      "must be a local path, a file: URI or an s3://bucket/path URI (unsupported scheme)";

  /** Rule: an S3 URI names its bucket. */
  public static final String RULE_BUCKET = "must name a bucket, as in s3://bucket/path";

  /** Rule: a file URI names no host. */
  public static final String RULE_FILE_HOST =
      "must name a local path: file:/path or file:///path, not file://host/path";

  private static final Pattern OTHER_SCHEME =
      Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*://.*", Pattern.DOTALL);
  private static final Pattern ENCODED_DOT = Pattern.compile("(?i)%2e");
  private static final Pattern ENCODED_SEPARATOR = Pattern.compile("(?i)%(2f|5c)");

  public TableLocation {
    Objects.requireNonNull(uri, "uri");
  }

  /** What a value says before resolution: its scheme, its root and its path segments. */
  private record Spelling(Scheme scheme, String root, boolean relative, List<String> segments) {}

  /**
   * Parses what a user typed: a relative or absolute local path, a {@code file:} URI or an {@code
   * s3://bucket/prefix} (or {@code s3a://}) URI. A relative path resolves against {@code workDir}.
   * One trailing slash is dropped.
   *
   * @throws IllegalArgumentException whose message joins every broken rule of {@link #refusals}
   */
  public static TableLocation parse(String raw, Path workDir) {
    List<String> refusals = refusals(raw);
    if (!refusals.isEmpty()) {
      throw new IllegalArgumentException(String.join("; ", refusals));
    }
    Spelling spelling = spell(raw.strip()).orElseThrow();
    String joined = String.join("/", spelling.segments());
    if (spelling.scheme() == Scheme.S3) {
      return new TableLocation("s3://" + joined);
    }
    Path base = spelling.relative() ? workDir.toAbsolutePath().normalize() : Path.of("/");
    Path path = joined.isEmpty() ? base : base.resolve(joined);
    return new TableLocation("file:" + path);
  }

  /**
   * Every rule {@code raw} breaks as a table location, each a phrase such as {@code must not
   * contain empty path segments (//)}; empty when {@link #parse} accepts it.
   */
  public static List<String> refusals(String raw) {
    if (raw == null || raw.isBlank()) {
      return List.of(RULE_BLANK);
    }
    String value = raw.strip();
    List<String> found = new ArrayList<>();
    for (int i = 0; i < value.length(); i++) {
      if (Character.isISOControl(value.charAt(i))) {
        found.add(
            RULE_CONTROL + " (U+%04X at position %d)".formatted((int) value.charAt(i), i + 1));
        break;
      }
    }
    if (value.indexOf('\\') >= 0) {
      found.add(RULE_BACKSLASH);
    }
    if (ENCODED_SEPARATOR.matcher(value).find()) {
      found.add(RULE_ENCODED_SEPARATOR);
    }
    String lower = value.toLowerCase(Locale.ROOT);
    if (OTHER_SCHEME.matcher(value).matches()
        && !lower.startsWith("s3://")
        && !lower.startsWith("s3a://")
        && !lower.startsWith("file:")) {
      found.add(RULE_SCHEME);
      return found;
    }
    if (lower.startsWith("file://") && !lower.startsWith("file:///")) {
      found.add(RULE_FILE_HOST);
      return found;
    }
    Spelling spelling = spell(value).orElse(null);
    if (spelling == null) {
      found.add(RULE_BLANK);
      return found;
    }
    if (spelling.scheme() == Scheme.S3
        && (spelling.segments().isEmpty() || spelling.segments().get(0).isEmpty())) {
      found.add(RULE_BUCKET);
      return found;
    }
    found.addAll(segmentRefusals(spelling.segments()));
    return found;
  }

  /** The rules {@code segments} break, each once, in a fixed order. */
  private static List<String> segmentRefusals(List<String> segments) {
    List<String> found = new ArrayList<>();
    if (segments.stream().anyMatch(TableLocation::isDotSegment)) {
      found.add(RULE_DOT_SEGMENT);
    }
    if (segments.stream().anyMatch(TableLocation::isEncodedDotSegment)) {
      found.add(RULE_ENCODED_DOT_SEGMENT);
    }
    if (segments.stream().anyMatch(String::isEmpty)) {
      found.add(RULE_EMPTY_SEGMENT);
    }
    return found;
  }

  private static boolean isDotSegment(String segment) {
    return segment.equals(".") || segment.equals("..");
  }

  private static boolean isEncodedDotSegment(String segment) {
    // An encoded dot needs a '%'; most segments have none and skip the regex.
    return segment.indexOf('%') >= 0
        && !isDotSegment(segment)
        && isDotSegment(ENCODED_DOT.matcher(segment).replaceAll("."));
  }

  /**
   * The scheme, root and segments {@code value} spells (one trailing slash dropped); empty when it
   * names no path at all ({@code file:}).
   */
  private static Optional<Spelling> spell(String value) {
    String lower = value.toLowerCase(Locale.ROOT);
    if (lower.startsWith("s3://") || lower.startsWith("s3a://")) {
      List<String> segments = segments(value.substring(value.indexOf("://") + 3));
      String bucket = segments.isEmpty() ? "" : segments.get(0);
      return Optional.of(new Spelling(Scheme.S3, bucket, false, segments));
    }
    String path = value;
    if (lower.startsWith("file:")) {
      path = value.substring("file:".length());
      if (path.startsWith("//")) {
        path = path.substring(2);
      }
    }
    if (path.isEmpty()) {
      return Optional.empty();
    }
    boolean relative = !path.startsWith("/");
    return Optional.of(
        new Spelling(Scheme.FILE, "/", relative, segments(relative ? path : path.substring(1))));
  }

  /** {@code path} split on {@code /}, keeping empty segments, without one trailing empty one. */
  private static List<String> segments(String path) {
    if (path.isEmpty()) {
      return List.of();
    }
    List<String> segments = new ArrayList<>(Arrays.asList(path.split("/", -1)));
    if (segments.size() > 1 && segments.get(segments.size() - 1).isEmpty()) {
      segments.remove(segments.size() - 1);
    }
    return segments;
  }

  /** Which storage this location lives on. */
  public Scheme scheme() {
    return uri.startsWith("s3://") ? Scheme.S3 : Scheme.FILE;
  }

  /** The bucket of an S3 location; {@code /} for a local one. */
  public String root() {
    if (scheme() == Scheme.FILE) {
      return "/";
    }
    String rest = uri.substring("s3://".length());
    int slash = rest.indexOf('/');
    return slash < 0 ? rest : rest.substring(0, slash);
  }

  /** The path below {@link #root()}, without a leading slash; empty for a bucket or {@code /}. */
  public String key() {
    if (scheme() == Scheme.FILE) {
      return uri.substring("file:/".length());
    }
    String rest = uri.substring("s3://".length());
    int slash = rest.indexOf('/');
    return slash < 0 ? "" : rest.substring(slash + 1);
  }

  private List<String> keySegments() {
    return key().isEmpty() ? List.of() : List.of(key().split("/", -1));
  }

  /**
   * Whether this location is {@code prefix} or lies below it, comparing whole segments of the same
   * scheme and root: {@code s3://b/tables} covers {@code s3://b/tables/events}, not {@code
   * s3://b/tables-old}.
   */
  public boolean isAtOrUnder(TableLocation prefix) {
    List<String> mine = keySegments();
    List<String> theirs = prefix.keySegments();
    return scheme() == prefix.scheme()
        && root().equals(prefix.root())
        && mine.size() >= theirs.size()
        && mine.subList(0, theirs.size()).equals(theirs);
  }

  /**
   * Whether {@code path} (an absolute path or URI, as kernel resolves a log path) names a file
   * strictly under this table's root: same scheme in any case ({@code s3a://} counts as {@code
   * s3://}, see {@link #canonicalPath}), same bucket, below the root's key, and free of dot,
   * encoded-dot and empty segments, so no later resolution can move it elsewhere.
   */
  public boolean contains(String path) {
    if (isPlainChild(path)) {
      return true;
    }
    Optional<List<String>> segments = pathSegments(path);
    if (segments.isEmpty()) {
      return false;
    }
    List<String> root = rootSegments();
    List<String> theirs = segments.get();
    return theirs.size() > root.size()
        && theirs.subList(0, root.size()).equals(root)
        && segmentRefusals(theirs).isEmpty();
  }

  /**
   * The one spelling storage listings use for an absolute path or URI, so that paths from the log
   * (active files, tombstones, deletion-vector and change-data files) and paths from a listing
   * compare equal as strings: the scheme in lower case, {@code s3a://} as {@code s3://}, and {@code
   * file:///x} or {@code FILE:/x} as {@code file:/x}. Only the scheme is rewritten; the rest is
   * kept byte for byte (no segment is resolved, so {@link #contains} still refuses dot segments). A
   * value of no scheme the compactor reaches, or {@code file://host/x}, comes back unchanged, and
   * {@link #contains} refuses it.
   */
  public static String canonicalPath(String absolute) {
    String lower = absolute.toLowerCase(Locale.ROOT);
    for (String prefix : List.of("s3://", "s3a://")) {
      if (lower.startsWith(prefix)) {
        return "s3://" + absolute.substring(prefix.length());
      }
    }
    if (lower.startsWith("file:///")) {
      return "file:/" + absolute.substring("file:///".length());
    }
    if (lower.startsWith("file:/") && !lower.startsWith("file://")) {
      return "file:/" + absolute.substring("file:/".length());
    }
    return absolute;
  }

  /**
   * The common case of {@link #contains} without splitting or allocating: {@code path} is this
   * canonical URI, a slash, and plain segments (ASCII letters, digits, {@code - _ . =}; none empty,
   * {@code .} or {@code ..}), and this location's own segments are neither empty nor dot segments
   * and hold no {@code %}. Every such path is one {@link #contains} accepts by its segments;
   * anything else is answered by them.
   */
  private boolean isPlainChild(String path) {
    int rootLength = uri.length();
    int rootPath;
    if (uri.startsWith("s3://")) {
      rootPath = "s3://".length();
    } else if (uri.startsWith("file:/") && !uri.startsWith("file://")) {
      rootPath = "file:/".length();
    } else {
      return false;
    }
    return path.length() > rootLength + 1
        && path.charAt(rootLength) == '/'
        && path.startsWith(uri)
        && segmentsAreClean(uri, rootPath, rootLength, false)
        && segmentsAreClean(path, rootLength + 1, path.length(), true);
  }

  /**
   * Whether {@code path} is relative and made of plain segments only: ASCII letters, digits, {@code
   * - _ . =}, none empty, {@code .} or {@code ..}. Such a path holds nothing a URI escapes, decodes
   * or normalises: what Delta writers log for a file of a partition whose values need no escaping.
   */
  public static boolean isPlainRelativePath(String path) {
    return segmentsAreClean(path, 0, path.length(), true);
  }

  /** What a character is to {@link #segmentsAreClean}: {@link #KINDS} holds it for ASCII. */
  private static final byte OTHER = 0;

  private static final byte PLAIN = 1;
  private static final byte DOT = 2;
  private static final byte SLASH = 3;
  private static final byte PERCENT = 4;

  /**
   * The kind of each ASCII character: {@link #PLAIN} for the letters, digits and {@code - _ =} of a
   * plain segment, {@link #DOT}, {@link #SLASH}, {@link #PERCENT}, {@link #OTHER} for the rest. A
   * table, not a chain of comparisons: every logged and listed path is checked, 200,000 in a vacuum
   * of 100,000 tombstones, twice each.
   */
  private static final byte[] KINDS = new byte[128];

  static {
    for (char c = 'a'; c <= 'z'; c++) {
      KINDS[c] = PLAIN;
    }
    for (char c = 'A'; c <= 'Z'; c++) {
      KINDS[c] = PLAIN;
    }
    for (char c = '0'; c <= '9'; c++) {
      KINDS[c] = PLAIN;
    }
    KINDS['-'] = PLAIN;
    KINDS['_'] = PLAIN;
    KINDS['='] = PLAIN;
    KINDS['.'] = DOT;
    KINDS['/'] = SLASH;
    KINDS['%'] = PERCENT;
  }

  /**
   * Whether {@code s} from {@code from} to {@code to} is {@code /}-separated segments none of which
   * is empty, {@code .} or {@code ..}, without a {@code %} (so no encoded dot either), and, when
   * {@code plainOnly}, of ASCII letters, digits, {@code - _ . =} only.
   */
  static boolean segmentsAreClean(String s, int from, int to, boolean plainOnly) {
    int segmentStart = from;
    // Whether the segment so far is dots only (or empty): one or two of them make a dot segment.
    boolean onlyDots = true;
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      byte kind = c < KINDS.length ? KINDS[c] : OTHER;
      if (kind == PLAIN || (kind == OTHER && !plainOnly)) {
        onlyDots = false;
      } else if (kind == SLASH) {
        if (!segmentIsClean(i - segmentStart, onlyDots)) {
          return false;
        }
        segmentStart = i + 1;
        onlyDots = true;
      } else if (kind != DOT) {
        return false;
      }
    }
    return segmentIsClean(to - segmentStart, onlyDots);
  }

  /**
   * Whether a segment of {@code length} characters is neither empty nor {@code .} or {@code ..}.
   */
  private static boolean segmentIsClean(int length, boolean onlyDots) {
    return length != 0 && !(onlyDots && length <= 2);
  }

  /** The root's own segments as {@link #contains} compares them (bucket first on S3). */
  private List<String> rootSegments() {
    List<String> root = new ArrayList<>();
    if (scheme() == Scheme.S3) {
      root.add(root());
    }
    root.addAll(keySegments());
    return root;
  }

  /** The segments of an absolute path of this location's scheme (bucket first on S3). */
  private Optional<List<String>> pathSegments(String path) {
    String canonical = canonicalPath(path);
    String prefix = scheme() == Scheme.S3 ? "s3://" : "file:/";
    if (!canonical.startsWith(prefix)
        || (scheme() == Scheme.FILE && canonical.startsWith("file://"))) {
      return Optional.empty();
    }
    return Optional.of(List.of(canonical.substring(prefix.length()).split("/", -1)));
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
