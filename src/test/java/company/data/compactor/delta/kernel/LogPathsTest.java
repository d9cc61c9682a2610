package company.data.compactor.delta.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.model.TableLocation;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class LogPathsTest {

  /** Paths a log may hold, each a way a short cut could go wrong. */
  private static final List<String> HOSTILE =
      List.of(
          "part-0.parquet",
          "event_date=2026-10-18/part-00001-8f9a-c000.zstd.parquet",
          "a/b/c/d=1/e=2/x.parquet",
          "...",
          "a/.../b",
          ".hidden/x.parquet",
          "_change_data/cdc-0.parquet",
          "a=b=c/x",
          "day=2026-10-17%20a/part-1.parquet",
          "day=2026-10-17 a/part-1.parquet",
          "p=%2e%2e/x.parquet",
          "p=a%2Fb/x.parquet",
          "p=100%25/x.parquet",
          "p=caf%C3%A9/x.parquet",
          "p=café/x.parquet",
          "../sibling/x.parquet",
          "a/../../x.parquet",
          "./x.parquet",
          "a/./x.parquet",
          "a//x.parquet",
          "a/",
          "/abs/x.parquet",
          "//host/x.parquet",
          "file:/elsewhere/x.parquet",
          "file:///elsewhere/x.parquet",
          "s3://other-bucket/x.parquet",
          "s3a://other-bucket/x.parquet",
          "a:b/x.parquet",
          "x.parquet?versionId=1",
          "x.parquet#frag",
          "a+b/x.parquet",
          "a~b/x.parquet",
          "A/B.PARQUET");

  private static final String ALPHABET = "aZ09-_.=/%2e:?# +~é\\;@&$!'()*,[]{}";

  /** Roots of odd spelling (a breaker session's), each as a location and as a kernel root. */
  private static final List<String> ODD_ROOTS =
      List.of(
          "file:/tmp/t",
          "file:/tmp/t/",
          "file:/",
          "file:///tmp/t",
          "file:///tmp/t/",
          "FILE:/tmp/t",
          "File:///tmp/t/",
          "file:/tmp/with space/t",
          "file:/tmp/with%20space/t/",
          "file:/tmp/100%",
          "file:/tmp/100%25",
          "file:/tmp/100%25/",
          "file:/tmp/caf\u00e9",
          "file:/tmp/caf%C3%A9/",
          "file:/tmp/\ud83d\ude00/t",
          "file:/tmp/a:b/t",
          "file:/tmp/a=b/t",
          "file:/tmp/k=v/",
          "file:/tmp/...",
          "file:/tmp/.../",
          "file:/tmp/./t",
          "file:/tmp/../t",
          "file:/tmp/t/..",
          "file:/tmp/t/.",
          "file:/tmp//t",
          "file:/tmp/a#b/t",
          "file:/tmp/a?b/t",
          "file:/tmp/t#frag/",
          "file:/tmp/t?q=1/",
          "file:/C:/t",
          "file:/C=/t",
          "file:C:/t",
          "file:tmp/t",
          "file://host/t",
          "/tmp/t",
          "/tmp/t/",
          "tmp/t",
          "tmp/t/",
          "./t",
          "../t",
          "..",
          ".../t",
          "C:/t",
          "s3://bkt",
          "s3://bkt/",
          "s3://bkt/tables/t",
          "s3://bkt/tables/t/",
          "s3a://bkt/tables/t",
          "s3a://bkt/tables/t/",
          "S3://bkt/t",
          "S3A://bkt/t/",
          "s3://b_k.t-1/t",
          "s3://BKT/T",
          "s3://user@bkt/t",
          "s3://bkt:80/t",
          "s3://bkt:/t",
          "s3://[::1]/t/",
          "s3:///t",
          "s3:///t/",
          "s3://bkt//t",
          "s3://bkt/a b/t",
          "s3://bkt/a%20b/t/",
          "s3://bkt/p=%2e%2e/t",
          "s3://bkt/x",
          "s3://bkt/t?versionId=1",
          "s3://bkt?q",
          "s3://bkt/?q",
          "s3://bkt#f",
          "hdfs://nn:8020/t/",
          "abfss://c@acct.dfs.core.windows.net/t/",
          "gs://bkt/t",
          "s3://bkt/" + "d".repeat(3000));

  /** Plain paths built to trip java.net.URI or kernel's Path. */
  private static final List<String> ODD_PLAIN =
      List.of(
          "x",
          "X",
          "a_0/b-1.c=2",
          "...",
          "....",
          ".x",
          "x.",
          "..x",
          "x..",
          "=",
          "-",
          "_",
          "0",
          "==/==",
          "-/-",
          "a..b",
          "C=",
          "C=/x",
          "a=b=c/d",
          "x/x/x",
          "a/.../b",
          "a/..../b",
          ".../...",
          "_delta_log",
          "_delta_log/00000000000000000000.json",
          "deletion_vector_0b1c.bin",
          "event_date=2026-10-18/part-00001-8f9a-c000.zstd.parquet",
          "-x",
          "--",
          "-1=2",
          "file",
          "file=/x",
          "s3=bkt/x",
          "http=/x",
          "a".repeat(5000),
          "a/".repeat(2000) + "b",
          "x".repeat(255) + "/" + "y".repeat(255));

  /** The resolutions the project uses, each over roots of every kind it meets. */
  private static List<UnaryOperator<String>> resolutions() {
    List<UnaryOperator<String>> all = new ArrayList<>();
    for (String uri :
        List.of(
            "file:/tmp/t",
            "file:/tmp/with space/t",
            "file:/tmp/caf\u00e9",
            "file:/tmp/100%25",
            "s3://bkt/tables/t",
            "s3://bkt")) {
      TableLocation location = new TableLocation(uri);
      all.add(logged -> KernelLogReader.resolve(location, logged));
    }
    for (String tableRoot :
        List.of(
            "file:/tmp/t/",
            "file:/tmp/t",
            "file:///tmp/t/",
            "file:/tmp/with%20space/t/",
            "s3://bkt/tables/t/",
            "s3a://bkt/tables/t/",
            "s3://bkt/")) {
      all.add(logged -> KernelDeltaTables.ScanFilePaths.kernelResolution(tableRoot, logged));
    }
    return all;
  }

  /** What the short cut answers, or the failure's class when it throws. */
  private static String answer(UnaryOperator<String> f, String logged) {
    try {
      return f.apply(logged);
    } catch (RuntimeException e) {
      return "threw " + e.getClass().getName();
    }
  }

  @Test
  void everyPath_resolvesAsTheResolutionItself_hostileAndRandom() {
    Random random = new Random(20261201);
    List<String> paths = new ArrayList<>(HOSTILE);
    for (int i = 0; i < 4000; i++) {
      StringBuilder path = new StringBuilder();
      int length = 1 + random.nextInt(12);
      for (int j = 0; j < length; j++) {
        path.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
      }
      paths.add(path.toString());
    }
    int compared = 0;
    for (UnaryOperator<String> resolution : resolutions()) {
      LogPaths shortCut = LogPaths.resolvedBy(resolution);
      assertThat(shortCut.shortCuts()).isTrue();
      for (String logged : paths) {
        assertThat(answer(shortCut::resolve, logged))
            .as(logged)
            .isEqualTo(answer(resolution, logged));
        compared++;
      }
    }
    assertThat(compared).isEqualTo(13 * paths.size());
  }

  @Test
  void aPlainPath_isAnsweredWithoutTheResolution_anyOtherThroughIt() {
    AtomicInteger calls = new AtomicInteger();
    TableLocation table = new TableLocation("s3://bkt/tables/t");
    LogPaths paths =
        LogPaths.resolvedBy(
            logged -> {
              calls.incrementAndGet();
              return KernelLogReader.resolve(table, logged);
            });
    int probes = calls.get();
    assertThat(paths.resolve("event_date=2026-10-18/part-1.parquet"))
        .isEqualTo("s3://bkt/tables/t/event_date=2026-10-18/part-1.parquet");
    assertThat(calls.get()).isEqualTo(probes);
    assertThat(paths.resolve("day=2026-10-17%20a/part-1.parquet"))
        .isEqualTo("s3://bkt/tables/t/day=2026-10-17 a/part-1.parquet");
    assertThat(paths.resolve("../sibling/x.parquet"))
        .isEqualTo("s3://bkt/tables/sibling/x.parquet");
    assertThat(calls.get()).isEqualTo(probes + 2);
  }

  @Test
  void aResolutionThatIsNotAPrefix_isNeverShortCut() {
    UnaryOperator<String> upper = logged -> "s3://bkt/t/" + logged.toUpperCase();
    LogPaths paths = LogPaths.resolvedBy(upper);
    assertThat(paths.shortCuts()).isFalse();
    assertThat(paths.resolve("part-0.parquet")).isEqualTo("s3://bkt/t/PART-0.PARQUET");
    UnaryOperator<String> failing =
        logged -> {
          throw new IllegalArgumentException("no");
        };
    assertThat(LogPaths.resolvedBy(failing).shortCuts()).isFalse();
  }

  @Test
  void plain_meansRelativeNonEmptySegmentsOfSafeCharactersOnly() {
    for (String plain :
        List.of(
            "x", "a/b", "event_date=2026-10-18/part-0.c000.parquet", "...", ".a/b.", "A-_=.9")) {
      assertThat(LogPaths.isPlain(plain)).as(plain).isTrue();
    }
    for (String not :
        List.of(
            "",
            "/",
            "/a",
            "a/",
            "a//b",
            ".",
            "..",
            "./a",
            "a/.",
            "a/../b",
            "a%20b",
            "a b",
            "a:b",
            "s3://b/x",
            "caf\u00e9",
            "a+b",
            "a?b",
            "a#b",
            "a\\b")) {
      assertThat(LogPaths.isPlain(not)).as(not).isFalse();
    }
  }

  @Test
  void oddRootsAndPlainPathsBuiltToTripUriOrPath_resolveAsTheResolutionItself() {
    Random random = new Random(424242);
    List<String> paths = new ArrayList<>(ODD_PLAIN);
    paths.addAll(HOSTILE);
    for (int i = 0; i < 400; i++) {
      StringBuilder path = new StringBuilder();
      int length = 1 + random.nextInt(24);
      for (int j = 0; j < length; j++) {
        path.append("aZ09-_.=/".charAt(random.nextInt(9)));
      }
      paths.add(path.toString());
    }
    int shortCut = 0;
    for (String root : ODD_ROOTS) {
      TableLocation location = new TableLocation(root);
      for (UnaryOperator<String> resolution :
          List.<UnaryOperator<String>>of(
              logged -> KernelLogReader.resolve(location, logged),
              logged -> KernelDeltaTables.ScanFilePaths.kernelResolution(root, logged))) {
        LogPaths shortCuts = LogPaths.resolvedBy(resolution);
        shortCut += shortCuts.shortCuts() ? 1 : 0;
        for (String logged : paths) {
          assertThat(answer(shortCuts::resolve, logged))
              .as(root + " | " + logged)
              .isEqualTo(answer(resolution, logged));
        }
      }
    }
    // Most roots short-cut; those whose resolution throws or is no prefix fall back.
    assertThat(shortCut).isGreaterThan(ODD_ROOTS.size());
  }
}
