package company.data.compactor.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TableLocationTest {

  private static final Path WORK = Path.of("/work/dir");

  private static final String DOT_SEGMENTS =
      "must not contain . or .. path segments; they are refused, never resolved: name the table by its"
          + " canonical path";
  private static final String ENCODED_DOTS =
      "must not contain percent-encoded . or .. path segments (%2e)";
  private static final String EMPTY_SEGMENTS = "must not contain empty path segments (//)";
  private static final String BACKSLASHES =
      "must not contain backslashes; separate path segments with /";

  @Test
  void parse_resolvesRelativePathsAgainstTheWorkDir() {
    assertThat(TableLocation.parse("demo_delta_table", WORK).uri())
        .isEqualTo("file:/work/dir/demo_delta_table");
    assertThat(TableLocation.parse("tables/demo/", WORK).uri())
        .isEqualTo("file:/work/dir/tables/demo");
  }

  @Test
  void parse_acceptsAbsolutePathsAndFileUris() {
    assertThat(TableLocation.parse("/data/t", WORK).uri()).isEqualTo("file:/data/t");
    assertThat(TableLocation.parse("file:/data/t", WORK).uri()).isEqualTo("file:/data/t");
    assertThat(TableLocation.parse("file:///data/t", WORK).uri()).isEqualTo("file:/data/t");
    assertThat(TableLocation.parse("file:///data/t/", WORK).uri()).isEqualTo("file:/data/t");
    assertThat(TableLocation.parse("file:///data/t", WORK).localPath())
        .isEqualTo(Path.of("/data/t"));
  }

  @Test
  void parse_normalisesS3Uris_intoSchemeBucketAndKey() {
    TableLocation location = TableLocation.parse("s3://bucket/tables/events/", WORK);
    assertThat(location.uri()).isEqualTo("s3://bucket/tables/events");
    assertThat(location.scheme()).isEqualTo(TableLocation.Scheme.S3);
    assertThat(location.root()).isEqualTo("bucket");
    assertThat(location.key()).isEqualTo("tables/events");
    assertThat(TableLocation.parse("s3a://bucket/t", WORK).uri()).isEqualTo("s3://bucket/t");
    assertThat(TableLocation.parse("s3://bucket", WORK).key()).isEmpty();
    assertThat(TableLocation.parse("s3://b/k", WORK).uri()).isEqualTo("s3://b/k");
    assertThat(TableLocation.parse("s3://b/k/", WORK).uri()).isEqualTo("s3://b/k");
  }

  @Test
  void parse_splitsLocalPathsIntoRootAndKey() {
    TableLocation location = TableLocation.parse("file:///data/t", WORK);
    assertThat(location.scheme()).isEqualTo(TableLocation.Scheme.FILE);
    assertThat(location.root()).isEqualTo("/");
    assertThat(location.key()).isEqualTo("data/t");
  }

  @Test
  void parse_keepsSpacesUnicodeAndEqualsSignsInSegments() {
    assertThat(TableLocation.parse("s3://b/t/date=2024-01-01", WORK).uri())
        .isEqualTo("s3://b/t/date=2024-01-01");
    assertThat(TableLocation.parse("s3://b/my table/événements", WORK).uri())
        .isEqualTo("s3://b/my table/événements");
    assertThat(TableLocation.parse("tables/région=eu", WORK).uri())
        .isEqualTo("file:/work/dir/tables/région=eu");
    assertThat(TableLocation.parse("s3://b/t/a..b/.hidden/..x", WORK).uri())
        .isEqualTo("s3://b/t/a..b/.hidden/..x");
    assertThat(TableLocation.parse("s3://b/t%20x", WORK).uri()).isEqualTo("s3://b/t%20x");
  }

  @Test
  void parse_refusesDotSegments_neverNormalisingThem() {
    for (String raw :
        List.of(
            "s3://bkt/tables/../secret/t",
            "s3://bkt/tables/./t",
            "s3://bkt/..",
            "s3://../t",
            "../t",
            "./demo_delta_table",
            "demo/..",
            "/data/../etc/t",
            "file:/data/./t",
            "file:///data/t/..")) {
      assertThat(TableLocation.refusals(raw)).as(raw).containsExactly(DOT_SEGMENTS);
      assertThatThrownBy(() -> TableLocation.parse(raw, WORK))
          .as(raw)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(DOT_SEGMENTS);
    }
  }

  @Test
  void parse_refusesPercentEncodedDotSegments() {
    for (String raw :
        List.of(
            "s3://bkt/tables/%2e%2e/secret",
            "s3://bkt/tables/%2E./t",
            "s3://bkt/t/.%2E",
            "s3://bkt/t/%2e",
            "%2e%2e/t",
            "file:/data/%2E%2E/t")) {
      assertThat(TableLocation.refusals(raw)).as(raw).containsExactly(ENCODED_DOTS);
    }
  }

  @Test
  void parse_refusesPercentEncodedSeparators() {
    assertThat(TableLocation.refusals("s3://bkt/tables%2f..%2fsecret"))
        .containsExactly("must not contain percent-encoded / or \\ (%2f, %5c)");
    assertThat(TableLocation.refusals("s3://bkt/t%5Cx"))
        .containsExactly("must not contain percent-encoded / or \\ (%2f, %5c)");
  }

  @Test
  void parse_refusesEmptySegments() {
    for (String raw :
        List.of(
            "s3://bkt/a//b", "s3://bkt//t", "s3://bkt/t//", "/data//t", "a//b", "file:/data//t")) {
      assertThat(TableLocation.refusals(raw)).as(raw).containsExactly(EMPTY_SEGMENTS);
    }
  }

  @Test
  void parse_refusesBackslashesAndControlCharacters() {
    assertThat(TableLocation.refusals("s3://bkt/tables\\t")).containsExactly(BACKSLASHES);
    assertThat(TableLocation.refusals("C:\\data\\t")).containsExactly(BACKSLASHES);
    assertThat(TableLocation.refusals("s3://bkt/t\n/x"))
        .containsExactly("must not contain control characters (U+000A at position 11)");
    assertThat(TableLocation.refusals("s3://bkt/t\u0000"))
        .containsExactly("must not contain control characters (U+0000 at position 11)");
  }

  @Test
  void parse_reportsEveryBrokenRuleOfOneValue() {
    assertThat(TableLocation.refusals("s3://bkt/../a//b\\c"))
        .containsExactly(BACKSLASHES, DOT_SEGMENTS, EMPTY_SEGMENTS);
    assertThatThrownBy(() -> TableLocation.parse("s3://bkt/../a//b", WORK))
        .hasMessage(DOT_SEGMENTS + "; " + EMPTY_SEGMENTS);
  }

  @Test
  void parse_refusesOtherSchemesHostsAndBlankValues() {
    assertThatThrownBy(() -> TableLocation.parse("gs://b/t", WORK))
        .hasMessage(
            "must be a local path, a file: URI or an s3://bucket/path URI (unsupported scheme)");
    assertThatThrownBy(() -> TableLocation.parse(" ", WORK)).hasMessage("must not be blank");
    assertThatThrownBy(() -> TableLocation.parse("s3://", WORK))
        .hasMessage("must name a bucket, as in s3://bucket/path");
    assertThatThrownBy(() -> TableLocation.parse("file://host/t", WORK))
        .hasMessage("must name a local path: file:/path or file:///path, not file://host/path");
  }

  @Test
  void isAtOrUnder_comparesWholeSegments_ofTheSameSchemeAndBucket() {
    TableLocation prefix = TableLocation.parse("s3://bkt/tables", WORK);
    assertThat(TableLocation.parse("s3://bkt/tables", WORK).isAtOrUnder(prefix)).isTrue();
    assertThat(TableLocation.parse("s3://bkt/tables/events", WORK).isAtOrUnder(prefix)).isTrue();
    assertThat(TableLocation.parse("s3://bkt/tables-old/events", WORK).isAtOrUnder(prefix))
        .isFalse();
    assertThat(TableLocation.parse("s3://other/tables/events", WORK).isAtOrUnder(prefix)).isFalse();
    assertThat(TableLocation.parse("/bkt/tables/events", WORK).isAtOrUnder(prefix)).isFalse();
    assertThat(
            TableLocation.parse("s3://bkt/t", WORK)
                .isAtOrUnder(TableLocation.parse("s3://bkt", WORK)))
        .isTrue();
    assertThat(TableLocation.parse("/data/t", WORK).isAtOrUnder(TableLocation.parse("/", WORK)))
        .isTrue();
  }

  @Test
  void contains_onlyPathsStrictlyUnderTheRoot() {
    TableLocation s3 = TableLocation.parse("s3://bkt/tables/t", WORK);
    assertThat(s3.contains("s3://bkt/tables/t/part-0.parquet")).isTrue();
    assertThat(s3.contains("s3a://bkt/tables/t/date=2024-01-01/part-0.parquet")).isTrue();
    assertThat(s3.contains("s3://bkt/tables/t")).isFalse();
    assertThat(s3.contains("s3://bkt/tables/t/")).isFalse();
    assertThat(s3.contains("s3://bkt/tables/t2/part-0.parquet")).isFalse();
    assertThat(s3.contains("s3://bkt/tables/sibling/x.parquet")).isFalse();
    assertThat(s3.contains("s3://bkt/tables/t/../sibling/x.parquet")).isFalse();
    assertThat(s3.contains("s3://bkt/tables/t/./x.parquet")).isFalse();
    assertThat(s3.contains("s3://bkt/tables/t/%2e%2e/x.parquet")).isFalse();
    assertThat(s3.contains("s3://bkt/tables/t//x.parquet")).isFalse();
    assertThat(s3.contains("s3://other/tables/t/x.parquet")).isFalse();
    assertThat(s3.contains("file:/tables/t/x.parquet")).isFalse();
    assertThat(s3.contains("../sibling/x.parquet")).isFalse();

    TableLocation local = TableLocation.parse("/data/t", WORK);
    assertThat(local.contains("file:/data/t/p=1/x.parquet")).isTrue();
    assertThat(local.contains("file:///data/t/x.parquet")).isTrue();
    assertThat(local.contains("file:/data/t/../u/x.parquet")).isFalse();
    assertThat(local.contains("file:/elsewhere/x.parquet")).isFalse();
    assertThat(local.contains("file://host/data/t/x.parquet")).isFalse();
    assertThat(local.contains("s3://data/t/x.parquet")).isFalse();
  }

  @Test
  void canonicalPath_isTheListingsSpelling_onlyTheSchemeChanges() {
    assertThat(TableLocation.canonicalPath("s3a://bkt/t/a.parquet"))
        .isEqualTo("s3://bkt/t/a.parquet");
    assertThat(TableLocation.canonicalPath("S3://bkt/t/a.parquet"))
        .isEqualTo("s3://bkt/t/a.parquet");
    assertThat(TableLocation.canonicalPath("S3A://bkt/T/A.parquet"))
        .isEqualTo("s3://bkt/T/A.parquet");
    assertThat(TableLocation.canonicalPath("s3://bkt/t/a.parquet"))
        .isEqualTo("s3://bkt/t/a.parquet");
    assertThat(TableLocation.canonicalPath("FILE:/data/T/a.parquet"))
        .isEqualTo("file:/data/T/a.parquet");
    assertThat(TableLocation.canonicalPath("file:///data/t/a.parquet"))
        .isEqualTo("file:/data/t/a.parquet");
    assertThat(TableLocation.canonicalPath("File:///data/t/a.parquet"))
        .isEqualTo("file:/data/t/a.parquet");
    assertThat(TableLocation.canonicalPath("file:/data/t/a.parquet"))
        .isEqualTo("file:/data/t/a.parquet");
    assertThat(TableLocation.canonicalPath("s3://bkt/t/../u/a.parquet"))
        .as("segments are never resolved: contains() still refuses them")
        .isEqualTo("s3://bkt/t/../u/a.parquet");
    assertThat(TableLocation.canonicalPath("file://host/data/t/a.parquet"))
        .isEqualTo("file://host/data/t/a.parquet");
    assertThat(TableLocation.canonicalPath("gs://bkt/t/a.parquet"))
        .isEqualTo("gs://bkt/t/a.parquet");
  }

  @Test
  void contains_acceptsEveryCaseOfTheScheme_asCanonicalPathDoes() {
    TableLocation s3 = TableLocation.parse("s3://bkt/t", WORK);
    assertThat(s3.contains("S3://bkt/t/a.parquet")).isTrue();
    assertThat(s3.contains("S3A://bkt/t/a.parquet")).isTrue();
    assertThat(s3.contains("S3://BKT/t/a.parquet"))
        .as("bucket names are not case-folded")
        .isFalse();
    TableLocation local = TableLocation.parse("/data/t", WORK);
    assertThat(local.contains("FILE:/data/t/a.parquet")).isTrue();
    assertThat(local.contains("FILE:///data/t/a.parquet")).isTrue();
    assertThat(local.contains("FILE://host/data/t/a.parquet")).isFalse();
  }

  /**
   * The segment rule of {@link TableLocation#contains} as it was before its short cut for plain
   * children: the oracle the short cut is compared with.
   */
  private static boolean containsBySegments(TableLocation location, String path) {
    String canonical = TableLocation.canonicalPath(path);
    boolean s3 = location.scheme() == TableLocation.Scheme.S3;
    String prefix = s3 ? "s3://" : "file:/";
    if (!canonical.startsWith(prefix) || (!s3 && canonical.startsWith("file://"))) {
      return false;
    }
    List<String> theirs = List.of(canonical.substring(prefix.length()).split("/", -1));
    List<String> root = new java.util.ArrayList<>();
    if (s3) {
      root.add(location.root());
    }
    if (!location.key().isEmpty()) {
      root.addAll(List.of(location.key().split("/", -1)));
    }
    return theirs.size() > root.size()
        && theirs.subList(0, root.size()).equals(root)
        && theirs.stream()
            .noneMatch(
                s ->
                    s.isEmpty()
                        || s.equals(".")
                        || s.equals("..")
                        || s.replaceAll("(?i)%2e", ".").equals(".")
                        || s.replaceAll("(?i)%2e", ".").equals(".."));
  }

  @Test
  void contains_answersAsTheSegmentRule_forHostileAndRandomPathsUnderEveryKindOfRoot() {
    java.util.Random random = new java.util.Random(1201);
    String alphabet = "aZ09-_.=/%2e:? \u00e9";
    List<String> roots =
        List.of(
            "file:/data/t",
            "file:/",
            "file:/a b/t",
            "file:/data/../t",
            "file:/data//t",
            "s3://bkt",
            "s3://bkt/tables/t",
            "s3://bkt/t/",
            "s3://bkt/./t",
            "s3://bkt/%2e%2e/t",
            "s3://b/100%25",
            "s3://bkt/x",
            "s3://user@bkt/t",
            "s3://bkt:80/t",
            "s3:///t",
            "file:/tmp/a:b/t",
            "file:/tmp/...",
            "file:/tmp/t#frag",
            "S3://bkt/t",
            "gs://bkt/t");
    int compared = 0;
    for (String uri : roots) {
      TableLocation location = new TableLocation(uri);
      List<String> paths = new java.util.ArrayList<>();
      for (String tail :
          List.of(
              "x.parquet",
              "p=1/x.parquet",
              "",
              "/",
              "/x",
              "x/",
              "../x",
              "./x",
              "%2e%2e/x",
              "a//b",
              "...",
              "a/...",
              "caf\u00e9/x",
              "a b/x",
              "a:b")) {
        paths.add(uri + "/" + tail);
        paths.add(uri + tail);
      }
      for (int i = 0; i < 2000; i++) {
        StringBuilder tail = new StringBuilder();
        int length = 1 + random.nextInt(10);
        for (int j = 0; j < length; j++) {
          tail.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        paths.add(uri + "/" + tail);
      }
      for (String path : paths) {
        assertThat(location.contains(path))
            .as(uri + " contains " + path)
            .isEqualTo(containsBySegments(location, path));
        compared++;
      }
    }
    assertThat(compared).isEqualTo(roots.size() * 2030);
  }

  @Test
  void segmentCheckAnswersAsTheComparisonChainItReplaced() {
    // The table-driven check against the chain of comparisons it replaced, on strings of every
    // character that matters to it (separators, dots, '%', each plain class, the characters just
    // outside them, non-ASCII, a surrogate pair), every sub-range, and both modes.
    String alphabet = "/.%aZ09-_=@`[{:+ ~\u007f\u0080\u00e9\u20ac\ud83d\ude00";
    Random random = new Random(18);
    int checked = 0;
    for (int n = 0; n < 20_000; n++) {
      StringBuilder text = new StringBuilder();
      int length = random.nextInt(9);
      for (int i = 0; i < length; i++) {
        text.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      String s = text.toString();
      for (int from = 0; from <= s.length(); from++) {
        for (int to = from; to <= s.length(); to++) {
          for (boolean plainOnly : new boolean[] {true, false}) {
            assertThat(TableLocation.segmentsAreClean(s, from, to, plainOnly))
                .as("\"%s\" from %d to %d, plain only %s", s, from, to, plainOnly)
                .isEqualTo(comparisonChain(s, from, to, plainOnly));
            checked++;
          }
        }
      }
    }
    assertThat(checked).isGreaterThan(500_000);
    assertThat(TableLocation.isPlainRelativePath("hour=h00001/part-0.c000.snappy.parquet"))
        .isTrue();
    for (String notPlain : List.of("", "a//b", "./a", "a/..", "a/.", "a%2e", "a b", "a/\u00e9")) {
      assertThat(TableLocation.isPlainRelativePath(notPlain)).as(notPlain).isFalse();
    }
    assertThat(TableLocation.isPlainRelativePath("a/.../b")).isTrue();
  }

  /** The check as it was written before the table: the oracle of the test above. */
  private static boolean comparisonChain(String s, int from, int to, boolean plainOnly) {
    int segmentStart = from;
    for (int i = from; i <= to; i++) {
      char c = i < to ? s.charAt(i) : '/';
      if (c == '/') {
        int segment = i - segmentStart;
        if (segment == 0
            || (segment == 1 && s.charAt(segmentStart) == '.')
            || (segment == 2
                && s.charAt(segmentStart) == '.'
                && s.charAt(segmentStart + 1) == '.')) {
          return false;
        }
        segmentStart = i + 1;
      } else if (c == '%'
          || (plainOnly
              && !((c >= 'a' && c <= 'z')
                  || (c >= 'A' && c <= 'Z')
                  || (c >= '0' && c <= '9')
                  || c == '-'
                  || c == '_'
                  || c == '.'
                  || c == '='))) {
        return false;
      }
    }
    return true;
  }
}
