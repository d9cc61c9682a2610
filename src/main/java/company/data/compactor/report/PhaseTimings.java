package company.data.compactor.report;

/**
 * Where a run's time went ({@code timings_ms} in the report), in milliseconds, each phase summed
 * over bins and partitions; a phase the command did not run is 0. On local storage compaction's
 * phases run one after another; on object stores compaction overlaps the download of the next bin
 * and the uploads and commits of the previous ones with the rewrite and verification of the current
 * one, so {@code download}, {@code upload} and {@code commit} (time spent by the transfers and
 * commits, whichever thread ran them) may overlap {@code rewrite} and {@code verify}, and the
 * phases may add up to more than {@code wall}. The probes run alone: nothing else of the run reads
 * or writes while they measure.
 *
 * @param inspect loading the snapshot and inspecting it
 * @param probeBefore the read-latency probe before compaction
 * @param download fetching bin inputs (and their deletion vectors) to scratch
 * @param rewrite rewriting bins with DuckDB
 * @param verify measuring inputs and outputs and comparing them
 * @param upload uploading verified outputs into the table
 * @param commit the lease check and each partition's commit, and reading the table again after them
 * @param probeAfter the read-latency probe after compaction
 * @param vacuumPlan vacuum (its plan, and deletes when not a dry run) and the log clean-up step
 * @param deliver the HTML page and the Slack summary
 * @param wall the whole command, start to report
 */
public record PhaseTimings(
    long inspect,
    long probeBefore,
    long download,
    long rewrite,
    long verify,
    long upload,
    long commit,
    long probeAfter,
    long vacuumPlan,
    long deliver,
    long wall) {

  /** No phase timed yet. */
  public static final PhaseTimings NONE = new PhaseTimings(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

  /** A phase of a run, as named in {@code timings_ms}. */
  public enum Phase {
    INSPECT,
    PROBE_BEFORE,
    DOWNLOAD,
    REWRITE,
    VERIFY,
    UPLOAD,
    COMMIT,
    PROBE_AFTER,
    VACUUM_PLAN,
    DELIVER,
    WALL
  }

  public PhaseTimings {
    for (long ms :
        new long[] {
          inspect,
          probeBefore,
          download,
          rewrite,
          verify,
          upload,
          commit,
          probeAfter,
          vacuumPlan,
          deliver,
          wall
        }) {
      if (ms < 0) {
        throw new IllegalArgumentException("a phase cannot take negative time: " + ms + " ms");
      }
    }
  }

  /** These timings with {@code ms} added to {@code phase}. */
  public PhaseTimings plus(Phase phase, long ms) {
    long add = Math.max(0, ms);
    return new PhaseTimings(
        inspect + (phase == Phase.INSPECT ? add : 0),
        probeBefore + (phase == Phase.PROBE_BEFORE ? add : 0),
        download + (phase == Phase.DOWNLOAD ? add : 0),
        rewrite + (phase == Phase.REWRITE ? add : 0),
        verify + (phase == Phase.VERIFY ? add : 0),
        upload + (phase == Phase.UPLOAD ? add : 0),
        commit + (phase == Phase.COMMIT ? add : 0),
        probeAfter + (phase == Phase.PROBE_AFTER ? add : 0),
        vacuumPlan + (phase == Phase.VACUUM_PLAN ? add : 0),
        deliver + (phase == Phase.DELIVER ? add : 0),
        wall + (phase == Phase.WALL ? add : 0));
  }

  /** The sum of every phase but {@code wall}. */
  public long phasesTotal() {
    return inspect
        + probeBefore
        + download
        + rewrite
        + verify
        + upload
        + commit
        + probeAfter
        + vacuumPlan
        + deliver;
  }
}
