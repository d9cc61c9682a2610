package company.data.compactor.delta.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import company.data.compactor.admission.Admission;
import company.data.compactor.admission.AdmittedRun;
import company.data.compactor.admission.Trigger;
import company.data.compactor.delta.RewriteLookup;
import company.data.compactor.error.CompactorException;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.report.MaintenanceReport;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.wiring.Wiring;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The log evidence a retried fan-out item relies on: a commit after a version that removed exactly
 * a partition's inputs without changing data; and a snapshot loaded at an earlier version.
 */
class LogRewriteLookupIT {

  @TempDir Path work;

  private final LocalStorage storage = new LocalStorage();
  private final KernelDeltaTables tables = new KernelDeltaTables(storage);
  private final LogRewriteLookup lookup = new LogRewriteLookup(storage);
  private TableLocation location;
  private TableSnapshot before;
  private MaintenanceReport report;

  @BeforeEach
  void aCompactedDemoTable() {
    AdmittedRun run =
        Admission.configuredBy(Map.of(), work)
            .admit(Trigger.CLI, Map.of("table_uri", "demo", "demo_mode", true));
    location = run.location();
    report = Wiring.pipeline(location, work, Map.of()).run(run);
    before = tables.loadAt(location, 30);
  }

  private Set<String> inputsOf(String date) {
    return before.activeFiles().stream()
        .filter(f -> f.partition().label().equals("event_date=" + date))
        .map(DataFile::logPath)
        .collect(Collectors.toSet());
  }

  @Test
  void loadAt_readsThePlansVersion_afterLaterCommits() {
    assertThat(before.version()).isEqualTo(30);
    assertThat(before.activeFiles()).hasSize(30);
    assertThat(tables.loadLatest(location).activeFiles()).hasSize(3);
    assertThatThrownBy(() -> tables.loadAt(location, 99))
        .isInstanceOf(CompactorException.class)
        .hasMessageContaining("loading version 99 snapshot of " + location);
  }

  @Test
  void aPartitionsRewrite_isFound_withItsVersionAndWhatItAdded() {
    String date = before.activeFiles().get(0).partition().label().substring("event_date=".length());
    Set<String> inputs = inputsOf(date);
    assertThat(inputs).hasSize(10);

    Optional<RewriteLookup.Rewrite> found = lookup.committedRewrite(location, 30, inputs);

    assertThat(found).isPresent();
    assertThat(found.get().version()).isBetween(31L, 33L);
    assertThat(found.get().filesAdded()).isEqualTo(1);
    assertThat(found.get().bytesAdded()).isPositive();
    // Not after the commit that did it, and not for a set one commit did not remove whole.
    assertThat(lookup.committedRewrite(location, found.get().version(), inputs)).isEmpty();
    Set<String> twoPartitions = new java.util.HashSet<>(inputs);
    twoPartitions.addAll(
        before.activeFiles().stream()
            .map(DataFile::logPath)
            .filter(p -> !inputs.contains(p))
            .limit(1)
            .toList());
    assertThat(lookup.committedRewrite(location, 30, twoPartitions)).isEmpty();
    assertThat(lookup.committedRewrite(location, 30, Set.of())).isEmpty();
  }

  @Test
  void aDeleteThatChangedData_isNotARewrite() throws Exception {
    String path = "event_date=x/not-ours.parquet";
    Path commit =
        Path.of(java.net.URI.create(location.child("_delta_log/00000000000000000034.json")));
    Files.writeString(
        commit,
        "{\"commitInfo\":{\"operation\":\"DELETE\"}}\n"
            + "{\"remove\":{\"path\":\""
            + path
            + "\",\"dataChange\":true,\"deletionTimestamp\":1}}\n",
        StandardCharsets.UTF_8);

    assertThat(lookup.committedRewrite(location, 33, Set.of(path))).isEmpty();
    assertThat(report.compaction().filesAfter()).isEqualTo(3);
  }
}
