package company.data.compactor.pipeline;

import company.data.compactor.compact.Compactor;
import company.data.compactor.delta.DeltaTables;
import company.data.compactor.demo.DemoSeeder;
import company.data.compactor.lease.LeaseGuard;
import company.data.compactor.loghygiene.LogCleanupExecutor;
import company.data.compactor.notify.Notifier;
import company.data.compactor.probe.LatencyProbe;
import company.data.compactor.publish.ReportPublisher;
import company.data.compactor.sweep.Sweeper;
import company.data.compactor.telemetry.TelemetrySink;
import company.data.compactor.vacuum.VacuumExecutor;
import java.time.Clock;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Everything the pipeline talks to, wired by an entry point (CLI, Lambda, tests).
 *
 * @param tables reads table snapshots
 * @param demoSeeder writes the demo table when {@code demo_mode} is on
 * @param compactor rewrites and commits compaction plans
 * @param probe measures read latency before and after compaction
 * @param vacuum plans and runs vacuum
 * @param logCleanup checkpoints the log and deletes expired log files
 * @param sweeper removes what killed runs left behind, at the start of {@code run} and {@code
 *     vacuum}
 * @param telemetry keeps each run's report
 * @param publisher writes each run's HTML page
 * @param notifier sends the Slack summary or alert when {@code notify_slack}
 * @param clock the run's time source
 * @param executionIds makes a unique id per run
 * @param leaseGuard asked before vacuum whether the run still holds its table's lease (the
 *     compactor asks it before each commit); {@link LeaseGuard#UNGUARDED} for work without a lease
 */
public record PipelinePorts(
    DeltaTables tables,
    DemoSeeder demoSeeder,
    Compactor compactor,
    LatencyProbe probe,
    VacuumExecutor vacuum,
    LogCleanupExecutor logCleanup,
    Sweeper sweeper,
    TelemetrySink telemetry,
    ReportPublisher publisher,
    Notifier notifier,
    Clock clock,
    Supplier<String> executionIds,
    LeaseGuard leaseGuard) {

  public PipelinePorts {
    Objects.requireNonNull(tables, "tables");
    Objects.requireNonNull(demoSeeder, "demoSeeder");
    Objects.requireNonNull(compactor, "compactor");
    Objects.requireNonNull(probe, "probe");
    Objects.requireNonNull(vacuum, "vacuum");
    Objects.requireNonNull(logCleanup, "logCleanup");
    Objects.requireNonNull(sweeper, "sweeper");
    Objects.requireNonNull(telemetry, "telemetry");
    Objects.requireNonNull(publisher, "publisher");
    Objects.requireNonNull(notifier, "notifier");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(executionIds, "executionIds");
    Objects.requireNonNull(leaseGuard, "leaseGuard");
  }
}
