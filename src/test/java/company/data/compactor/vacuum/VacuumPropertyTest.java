package company.data.compactor.vacuum;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.delta.LogHistory;
import company.data.compactor.delta.Tombstone;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.PartitionValues;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSchema;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.StoredObject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Random histories of appends, compactions, deletes and orphan files at random times, vacuumed at a
 * random later time: no deleted file is active now or referenced by any version younger than the
 * retention, every deleted file's object is older than the cutoff, and lite mode deletes only
 * tombstoned files. Pure and seeded, so a failure names its seed.
 */
class VacuumPropertyTest {

  private static final String ROOT = "file:/t";
  private static final long DAY = Duration.ofDays(1).toMillis();

  /** One generated history: the files of every version, and what storage holds. */
  private record History(
      List<Long> versionTimes,
      List<Set<String>> filesAt,
      Map<String, Tombstone> tombstones,
      Map<String, Long> objects) {}

  private static History generate(Random random) {
    List<Long> times = new ArrayList<>();
    List<Set<String>> filesAt = new ArrayList<>();
    Map<String, Tombstone> tombstones = new HashMap<>();
    Map<String, Long> objects = new HashMap<>();
    Set<String> active = new LinkedHashSet<>();
    long time = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
    int next = 0;
    int versions = 5 + random.nextInt(40);
    for (int v = 0; v < versions; v++) {
      time += random.nextInt(4) == 0 ? random.nextInt(5) * DAY : random.nextInt(6 * 3_600_000);
      int op = v == 0 ? 0 : random.nextInt(10);
      if (op <= 4) {
        for (int k = 1 + random.nextInt(3); k > 0; k--) {
          String path = ROOT + "/p=" + random.nextInt(3) + "/f" + next++ + ".parquet";
          active.add(path);
          objects.put(path, time);
        }
      } else if (op <= 6 && active.size() >= 2) {
        List<String> inputs = new ArrayList<>(active).subList(0, 2 + random.nextInt(Math.min(3, active.size() - 1)));
        for (String input : new ArrayList<>(inputs)) {
          active.remove(input);
          tombstones.put(input, new Tombstone(input, time, v));
        }
        String output = ROOT + "/p=0/c" + next++ + ".parquet";
        active.add(output);
        objects.put(output, time);
      } else if (op <= 8 && !active.isEmpty()) {
        String victim = new ArrayList<>(active).get(random.nextInt(active.size()));
        active.remove(victim);
        tombstones.put(victim, new Tombstone(victim, time, v));
      } else {
        // An orphan: written by a writer whose commit never landed (never in any version).
        objects.put(ROOT + "/p=1/orphan" + next++ + ".parquet", time);
      }
      times.add(time);
      filesAt.add(new LinkedHashSet<>(active));
    }
    return new History(times, filesAt, tombstones, objects);
  }

  @Test
  void vacuum_neverDeletesWhatTheCurrentOrARetainedVersionReads_overRandomHistories() {
    for (long seed = 1; seed <= 400; seed++) {
      Random random = new Random(seed);
      History history = generate(random);
      long last = history.versionTimes().get(history.versionTimes().size() - 1);
      Instant now = Instant.ofEpochMilli(last + random.nextInt(20) * DAY + random.nextInt(24) * 3_600_000L);
      int requestedHours = List.of(1, 168, 200, 336).get(random.nextInt(4));
      VacuumMode mode = random.nextBoolean() ? VacuumMode.LITE : VacuumMode.FULL;

      List<DataFile> current = history.filesAt().get(history.filesAt().size() - 1).stream()
          .map(p -> new DataFile(p, p.substring(ROOT.length() + 1), 10, PartitionValues.none(), OptionalLong.of(1), 0, false))
          .toList();
      TableSnapshot snapshot = new TableSnapshot(new TableLocation(ROOT), history.versionTimes().size() - 1,
          new TableSchema(List.of(), List.of()), current, Map.of(), Set.of());
      LogHistory log = new LogHistory(snapshot.version(), 0, history.versionTimes().get(0), -1,
          new ArrayList<>(history.tombstones().values()), Set.of());
      List<StoredObject> objects = history.objects().entrySet().stream()
          .map(e -> new StoredObject(e.getKey(), 10, e.getValue()))
          .toList();

      VacuumPlan plan = new VacuumPlanner(Clock.fixed(now, ZoneOffset.UTC)).plan(snapshot, log, objects, mode, requestedHours);

      long cutoff = plan.cutoff().toEpochMilli();
      assertThat(plan.retention().duration()).as("seed %d", seed).isGreaterThanOrEqualTo(Duration.ofHours(168));
      Set<String> retained = new HashSet<>();
      for (int v = 0; v < history.versionTimes().size(); v++) {
        // A version stays readable by time travel while the next version's time is inside the
        // retention (until then it is the table as of any instant in the window).
        boolean lastVersion = v == history.versionTimes().size() - 1;
        if (lastVersion || history.versionTimes().get(v + 1) >= cutoff) {
          retained.addAll(history.filesAt().get(v));
        }
      }
      for (VacuumCandidate candidate : plan.candidates()) {
        assertThat(retained).as("seed %d: %s is read by a retained version", seed, candidate.path())
            .doesNotContain(candidate.path());
        assertThat(history.objects().get(candidate.path())).as("seed %d: object time", seed).isLessThan(cutoff);
        if (mode == VacuumMode.LITE) {
          assertThat(history.tombstones()).as("seed %d: lite deletes tombstoned files only", seed)
              .containsKey(candidate.path());
        }
      }
      // And it does its job: every tombstoned, unretained, old file is a candidate.
      for (Tombstone t : history.tombstones().values()) {
        if (!retained.contains(t.path()) && t.removedAtMillis() < cutoff && history.objects().get(t.path()) < cutoff) {
          assertThat(plan.candidates()).as("seed %d: %s is eligible", seed, t.path())
              .extracting(VacuumCandidate::path).contains(t.path());
        }
      }
    }
  }
}
