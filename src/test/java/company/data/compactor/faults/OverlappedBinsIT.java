package company.data.compactor.faults;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import company.data.compactor.testing.FaultProxy;
import company.data.compactor.testing.FaultProxy.Fault;
import company.data.compactor.testing.FaultScenario;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On S3 consecutive bins overlap (issue 18): the next bin's inputs are downloaded while the bin
 * before it is rewritten, verified, uploaded and committed. The demo table's three partitions are
 * one bin each, compacted in date order; the probe reads only the first partition, so every GET of
 * the other partitions' seeded files is the compaction's.
 */
class OverlappedBinsIT {

  private static final String SEEDED_18 =
      "/test-[^/]+/t/event_date(=|%3D)2026-10-18/(?![^/]*\\.zstd\\.)[^/]+\\.parquet.*";
  private static final String SEEDED_19 =
      "/test-[^/]+/t/event_date(=|%3D)2026-10-19/(?![^/]*\\.zstd\\.)[^/]+\\.parquet.*";

  @TempDir Path work;

  private static Map<String, String> probingOnePartition(FaultScenario table) {
    Map<String, String> env = new HashMap<>(table.environment());
    env.put("COMPACTOR_PROBE_PARTITIONS", "1");
    return env;
  }

  /** When the proxy first saw the PUT of commit {@code version}. */
  private static long commitStarted(FaultProxy proxy, int version) {
    String name = String.format("%020d.json", version);
    return proxy.seen().stream()
        .filter(r -> r.method().equals("PUT") && r.path().contains("/_delta_log/" + name))
        .mapToLong(FaultProxy.Seen::startedNanos)
        .min()
        .orElseThrow(() -> new AssertionError("no PUT of commit " + version));
  }

  private static List<FaultProxy.Seen> gets(FaultProxy proxy, String pathRegex) {
    return proxy.seen().stream()
        .filter(r -> r.method().equals("GET") && r.path().matches(pathRegex))
        .toList();
  }

  @Test
  void theSecondBinsInputsAreDownloaded_beforeTheFirstBinIsCommitted() throws Exception {
    try (FaultScenario table = FaultScenario.fresh(work)) {
      FaultScenario.Result run = table.run(probingOnePartition(table));

      assertThat(run.code()).as(run.err()).isZero();
      assertThat(new ObjectMapper().readTree(run.out()).get("version_after").asLong())
          .isEqualTo(33);
      long firstCommit = commitStarted(table.s3(), 31);
      List<FaultProxy.Seen> second = gets(table.s3(), SEEDED_18);
      assertThat(second).as("the second partition's 10 seeded files, read once").hasSize(10);
      assertThat(second)
          .as("every GET of bin 2 started before bin 1's commit")
          .allSatisfy(r -> assertThat(r.startedNanos()).isLessThan(firstCommit));
      assertThat(table.rowsAndDistinctIds())
          .containsExactly(FaultScenario.ROWS, FaultScenario.ROWS);
    }
  }

  @Test
  void aPrefetchedBinThatCannotBeDownloaded_failsTheRun_leavingNothingBehind() throws Exception {
    try (FaultScenario table = FaultScenario.fresh(work)) {
      table.s3().on("GET", SEEDED_19, 1, 1000, Fault.s3(403, "AccessDenied"));

      FaultScenario.Result run = table.run(probingOnePartition(table));

      assertThat(run.code()).as(run.out()).isEqualTo(1);
      assertThat(run.err())
          .startsWith("compactor: error: Failed while rewriting files of " + table.uri());
      List<FaultProxy.Seen> refused = gets(table.s3(), SEEDED_19);
      assertThat(refused).isNotEmpty();
      assertThat(refused.get(0).startedNanos())
          .as("bin 3 was fetched ahead, before bin 2's commit")
          .isLessThan(commitStarted(table.s3(), 32));
      assertThat(table.snapshot().version())
          .as("the two bins before it are committed, as a loop would have")
          .isEqualTo(32);
      assertThat(table.orphans()).isEmpty();
      assertThat(leftInScratch()).isEmpty();
      assertThat(table.rowsAndDistinctIds())
          .containsExactly(FaultScenario.ROWS, FaultScenario.ROWS);
    }
  }

  /** Bin directories and downloaded inputs left anywhere under the work directory. */
  private List<Path> leftInScratch() throws IOException {
    try (Stream<Path> all = Files.walk(work)) {
      return all.filter(
              p ->
                  p.getFileName().toString().startsWith("bin-")
                      || p.getFileName().toString().startsWith("input-"))
          .toList();
    }
  }
}
