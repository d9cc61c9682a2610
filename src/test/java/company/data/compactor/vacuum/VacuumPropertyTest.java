package company.data.compactor.vacuum;

import static org.assertj.core.api.Assertions.assertThat;

import company.data.compactor.delta.LogHistory;
import company.data.compactor.delta.Tombstone;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.DeletionVector;
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
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Random histories of appends, compactions, deletes (whole files, or rows through deletion vectors,
 * with change-data files) and orphan files at random times, vacuumed at a random later time: no
 * deleted file is read by the current version or by any version younger than the retention (data
 * files, deletion-vector files, change-data files), every deleted file's object is older than the
 * cutoff, and lite mode deletes only tombstoned files. Pure and seeded, so a failure names its
 * seed.
 */
class VacuumPropertyTest {

  private static final String ROOT = "file:/t";
  private static final long DAY = Duration.ofDays(1).toMillis();

  /**
   * One generated history: the files each version reads, the tombstones the log reader would
   * report, the active files of the last version with their deletion vectors, and what storage
   * holds.
   */
  private record History(
      List<Long> versionTimes,
      List<Set<String>> filesAt,
      Map<String, Tombstone> tombstones,
      Map<String, String> deletionVectorOf,
      Set<String> active,
      Map<String, Long> objects) {}

  private static History generate(Random random) {
    List<Long> times = new ArrayList<>();
    List<Set<String>> filesAt = new ArrayList<>();
    Map<String, Tombstone> tombstones = new HashMap<>();
    Map<String, Long> objects = new HashMap<>();
    Set<String> active = new LinkedHashSet<>();
    Map<String, String> dvOf = new HashMap<>();
    Map<Integer, String> changeDataOf = new HashMap<>();
    long time = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
    int next = 0;
    int versions = 5 + random.nextInt(40);
    for (int v = 0; v < versions; v++) {
      time += random.nextInt(4) == 0 ? random.nextInt(5) * DAY : random.nextInt(6 * 3_600_000);
      int op = v == 0 ? 0 : random.nextInt(12);
      if (op <= 3) {
        for (int k = 1 + random.nextInt(3); k > 0; k--) {
          String path = ROOT + "/p=" + random.nextInt(3) + "/f" + next++ + ".parquet";
          active.add(path);
          objects.put(path, time);
        }
      } else if (op <= 5 && active.size() >= 2) {
        List<String> inputs =
            new ArrayList<>(active).subList(0, 2 + random.nextInt(Math.min(3, active.size() - 1)));
        for (String input : new ArrayList<>(inputs)) {
          active.remove(input);
          remove(input, dvOf, tombstones, time, v);
        }
        String output = ROOT + "/p=0/c" + next++ + ".parquet";
        active.add(output);
        objects.put(output, time);
      } else if (op <= 7 && !active.isEmpty()) {
        // DELETE of some rows: remove the file with its old deletion vector, add it with a new one.
        String file = new ArrayList<>(active).get(random.nextInt(active.size()));
        remove(file, dvOf, tombstones, time, v);
        String dv =
            ROOT + (random.nextBoolean() ? "/ab" : "") + "/deletion_vector_" + next++ + ".bin";
        dvOf.put(file, dv);
        objects.put(dv, time);
        changeData(random, changeDataOf, objects, v, time, next++);
      } else if (op <= 9 && !active.isEmpty()) {
        String victim = new ArrayList<>(active).get(random.nextInt(active.size()));
        active.remove(victim);
        remove(victim, dvOf, tombstones, time, v);
        changeData(random, changeDataOf, objects, v, time, next++);
      } else {
        // An orphan: written by a writer whose commit never landed (never in any version).
        String orphan =
            random.nextBoolean()
                ? "/p=1/orphan" + next++ + ".parquet"
                : "/deletion_vector_orphan" + next++ + ".bin";
        objects.put(ROOT + orphan, time);
      }
      times.add(time);
      Set<String> reads = new LinkedHashSet<>(active);
      active.stream().map(dvOf::get).filter(java.util.Objects::nonNull).forEach(reads::add);
      if (changeDataOf.containsKey(v)) {
        reads.add(changeDataOf.get(v));
      }
      filesAt.add(reads);
    }
    // As the log reader reports them: a change-data file is released when the next version lands.
    changeDataOf.forEach(
        (v, path) ->
            tombstones.put(
                path,
                new Tombstone(path, v + 1 < times.size() ? times.get(v + 1) : Long.MAX_VALUE, v)));
    return new History(times, filesAt, tombstones, dvOf, active, objects);
  }

  /** A remove action: tombstones the file and the deletion-vector file it carries. */
  private static void remove(
      String file, Map<String, String> dvOf, Map<String, Tombstone> tombstones, long time, int v) {
    tombstones.put(file, new Tombstone(file, time, v));
    String dv = dvOf.remove(file);
    if (dv != null) {
      tombstones.put(dv, new Tombstone(dv, time, v));
    }
  }

  private static void changeData(
      Random random,
      Map<Integer, String> changeDataOf,
      Map<String, Long> objects,
      int v,
      long time,
      int n) {
    if (random.nextBoolean()) {
      String path = ROOT + "/_change_data/cdc-" + n + ".parquet";
      changeDataOf.put(v, path);
      objects.put(path, time);
    }
  }

  private static DataFile dataFile(String path, History history) {
    Optional<DeletionVector> dv =
        Optional.ofNullable(history.deletionVectorOf().get(path))
            .map(file -> new DeletionVector(Optional.of(file), 1));
    return new DataFile(
        path,
        path.substring(ROOT.length() + 1),
        10,
        PartitionValues.none(),
        OptionalLong.of(1),
        0,
        dv.isPresent(),
        null,
        List.of(),
        dv);
  }

  @Test
  void vacuum_neverDeletesWhatTheCurrentOrARetainedVersionReads_overRandomHistories() {
    for (long seed = 1; seed <= 400; seed++) {
      Random random = new Random(seed);
      History history = generate(random);
      long last = history.versionTimes().get(history.versionTimes().size() - 1);
      Instant now =
          Instant.ofEpochMilli(last + random.nextInt(20) * DAY + random.nextInt(24) * 3_600_000L);
      int requestedHours = List.of(1, 168, 200, 336).get(random.nextInt(4));
      VacuumMode mode = random.nextBoolean() ? VacuumMode.LITE : VacuumMode.FULL;

      List<DataFile> current = history.active().stream().map(p -> dataFile(p, history)).toList();
      TableSnapshot snapshot =
          new TableSnapshot(
              new TableLocation(ROOT),
              history.versionTimes().size() - 1,
              new TableSchema(List.of(), List.of()),
              current,
              Map.of(),
              Set.of());
      LogHistory log =
          new LogHistory(
              snapshot.version(),
              0,
              history.versionTimes().get(0),
              -1,
              new ArrayList<>(history.tombstones().values()),
              Set.of());
      List<StoredObject> objects =
          history.objects().entrySet().stream()
              .map(e -> new StoredObject(e.getKey(), 10, e.getValue()))
              .toList();

      VacuumPlan plan =
          new VacuumPlanner(Clock.fixed(now, ZoneOffset.UTC))
              .plan(snapshot, log, objects, mode, requestedHours);

      long cutoff = plan.cutoff().toEpochMilli();
      assertThat(plan.retention().duration())
          .as("seed %d", seed)
          .isGreaterThanOrEqualTo(Duration.ofHours(168));
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
        assertThat(retained)
            .as("seed %d: %s is read by a retained version", seed, candidate.path())
            .doesNotContain(candidate.path());
        assertThat(history.objects().get(candidate.path()))
            .as("seed %d: object time", seed)
            .isLessThan(cutoff);
        if (mode == VacuumMode.LITE) {
          assertThat(history.tombstones())
              .as("seed %d: lite deletes tombstoned files only", seed)
              .containsKey(candidate.path());
        }
      }
      // And it does its job: every tombstoned, unretained, old file is a candidate.
      for (Tombstone t : history.tombstones().values()) {
        if (!retained.contains(t.path())
            && t.removedAtMillis() < cutoff
            && history.objects().get(t.path()) < cutoff) {
          assertThat(plan.candidates())
              .as("seed %d: %s is eligible", seed, t.path())
              .extracting(VacuumCandidate::path)
              .contains(t.path());
        }
      }
    }
  }
}
