package company.data.compactor.pipeline;

import company.data.compactor.compact.CompactionPlan;
import company.data.compactor.compact.CompactionResult;
import company.data.compactor.compact.PartitionResult;
import company.data.compactor.compact.ZOrderSkipping;
import company.data.compactor.config.MaintenanceRequest;
import company.data.compactor.inspect.TableHealth;
import company.data.compactor.loghygiene.LogCleanupMode;
import company.data.compactor.loghygiene.LogCleanupPlan;
import company.data.compactor.loghygiene.LogCleanupResult;
import company.data.compactor.loghygiene.LogFile;
import company.data.compactor.loghygiene.LogSettings;
import company.data.compactor.model.ByteSizes;
import company.data.compactor.model.PartitionValues;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.probe.ProbeResult;
import company.data.compactor.probe.ProbeSettings;
import company.data.compactor.report.CompactionPartitionReport;
import company.data.compactor.report.CompactionReport;
import company.data.compactor.report.LatencyReport;
import company.data.compactor.report.LogCleanupReport;
import company.data.compactor.report.PartitionReport;
import company.data.compactor.report.PlanPartitionReport;
import company.data.compactor.report.PlanReport;
import company.data.compactor.report.RunState;
import company.data.compactor.report.SweepReport;
import company.data.compactor.report.VacuumReport;
import company.data.compactor.report.ZOrderSkippingReport;
import company.data.compactor.sweep.SweepResult;
import company.data.compactor.vacuum.VacuumCandidate;
import company.data.compactor.vacuum.VacuumPlan;
import company.data.compactor.vacuum.VacuumResult;
import java.util.List;
import java.util.Locale;

/** Maps the run's result values onto the report's sections. */
final class ReportSections {

  private ReportSections() {}

  static List<PartitionReport> partitions(TableHealth health) {
    return health.partitions().stream()
        .map(
            p ->
                new PartitionReport(
                    p.partition(),
                    p.partitionValues(),
                    p.fileCount(),
                    p.smallFilesCount(),
                    p.smallFileRatioPct(),
                    p.avgFileSizeMb(),
                    p.totalSizeMb(),
                    p.totalBytes(),
                    p.deletedRows(),
                    p.deletedRowsRatio(),
                    p.compactableSmallFiles(),
                    p.verdict().label()))
        .toList();
  }

  static PlanReport plan(CompactionPlan plan) {
    return new PlanReport(
        plan.readVersion(),
        plan.options().layout().name().toLowerCase(Locale.ROOT),
        plan.options().partitionFilter().text(),
        plan.tableGatePassed(),
        plan.bins().size(),
        plan.filesToRewrite(),
        plan.bytesToRewrite(),
        plan.deferred().size(),
        plan.bytesDeferred(),
        plan.partitions().stream()
            .map(
                d ->
                    new PlanPartitionReport(
                        d.partition().label(),
                        d.partition().values(),
                        d.files(),
                        d.smallFiles(),
                        d.outcome().name().toLowerCase(Locale.ROOT),
                        d.bins()))
            .toList(),
        0,
        plan.deletionVectorsToPurge());
  }

  /** The compaction section when compaction was planned but nothing ran (gate, dry plan). */
  /** {@code zorder_skipping} over the partitions whose Z-order rewrite was committed. */
  static ZOrderSkippingReport zOrderSkipping(
      List<String> columns,
      TableSnapshot before,
      TableSnapshot after,
      CompactionReport compaction) {
    java.util.Set<PartitionValues> committed =
        compaction.compactionPartitions().stream()
            .filter(p -> p.status().equals("committed"))
            .map(p -> new PartitionValues(p.partitionValues()))
            .collect(java.util.stream.Collectors.toSet());
    List<ZOrderSkipping.ColumnSkipping> measured =
        ZOrderSkipping.measure(
            before.activeFiles(),
            after.activeFiles(),
            columns,
            committed,
            after.schema()::physicalName);
    if (measured.isEmpty()) {
      return null;
    }
    return new ZOrderSkippingReport(
        columns,
        round(
            measured.stream()
                .mapToDouble(ZOrderSkipping.ColumnSkipping::fileFractionBefore)
                .average()
                .orElse(1.0)),
        round(
            measured.stream()
                .mapToDouble(ZOrderSkipping.ColumnSkipping::fileFractionAfter)
                .average()
                .orElse(1.0)),
        measured.stream()
            .map(
                m ->
                    new ZOrderSkippingReport.Column(
                        m.column(),
                        m.sampledValues(),
                        round(m.fileFractionBefore()),
                        round(m.fileFractionAfter()),
                        round(m.lookupFilesBefore()),
                        round(m.lookupFilesAfter()),
                        Math.round(m.lookupBytesBefore()),
                        Math.round(m.lookupBytesAfter())))
            .toList(),
        round(average(measured, ZOrderSkipping.ColumnSkipping::lookupFilesBefore)),
        round(average(measured, ZOrderSkipping.ColumnSkipping::lookupFilesAfter)),
        Math.round(average(measured, ZOrderSkipping.ColumnSkipping::lookupBytesBefore)),
        Math.round(average(measured, ZOrderSkipping.ColumnSkipping::lookupBytesAfter)));
  }

  private static double average(
      List<ZOrderSkipping.ColumnSkipping> measured,
      java.util.function.ToDoubleFunction<ZOrderSkipping.ColumnSkipping> figure) {
    return measured.stream().mapToDouble(figure).average().orElse(0);
  }

  /** The {@code log_cleanup} section. */
  static LogCleanupReport logCleanup(LogCleanupResult result) {
    LogCleanupPlan plan = result.plan();
    LogSettings settings = plan.settings();
    List<String> warnings = new java.util.ArrayList<>(plan.warnings());
    settings.problems().stream()
        .filter(p -> p.startsWith(LogSettings.INTERVAL))
        .map(p -> p + ": no checkpoint is written")
        .forEach(warnings::add);
    if (result.skippedOutsideRoot() > 0) {
      warnings.add(
          result.skippedOutsideRoot()
              + " expired log files were not deleted: their real path is outside the table root");
    }
    return new LogCleanupReport(
        result.mode() == LogCleanupMode.DRY_RUN,
        settings.cleanupEnabled(),
        settings.retention().map(java.time.Duration::toHours).orElse(null),
        settings.retentionSource(),
        plan.cutoff() == null ? null : plan.cutoff().toString(),
        settings.checkpointInterval().isPresent() ? settings.checkpointInterval().getAsInt() : null,
        result.checkpoint().commitsSinceCheckpoint(),
        result.checkpointStatus().name().toLowerCase(Locale.ROOT),
        result.checkpoint().due() ? result.checkpoint().latestVersion() : null,
        result.checkpointDetail(),
        result.listedFiles(),
        plan.expired().size(),
        plan.expired().stream().limit(20).map(LogFile::name).toList(),
        result.deletedFiles(),
        result.checkpoint().latestVersion(),
        plan.oldestVersionBefore(),
        plan.oldestVersionAfter(),
        result.fenced()
            ? RunState.LOG_CLEANUP_FENCED + result.fencedReason()
            : plan.skippedReason(),
        warnings);
  }

  private static double round(double fraction) {
    return Math.round(fraction * 10_000) / 10_000.0;
  }

  static CompactionReport notRun(TableHealth health, CompactionPlan plan) {
    return new CompactionReport(
        false,
        health.tableVersion(),
        health.tableVersion(),
        health.totalFiles(),
        health.totalFiles(),
        0,
        0,
        0,
        0,
        0.0,
        0,
        plan.bytesDeferred() + (plan.isEmpty() ? 0 : plan.bytesToRewrite()),
        0,
        0,
        0.0,
        plan(plan),
        List.of());
  }

  static CompactionReport ran(TableHealth health, CompactionPlan plan, CompactionResult result) {
    int removed = result.filesRemoved();
    int added = result.filesAdded();
    return new CompactionReport(
        result.compacted(),
        result.versionBefore(),
        result.versionAfter(),
        health.totalFiles(),
        health.totalFiles() - removed + added,
        removed,
        added,
        removed - added,
        result.bytesRemoved(),
        round(ByteSizes.bytesToMb(result.bytesRemoved()), 4),
        result.bytesAdded(),
        plan.bytesDeferred(),
        result.rowsRewritten(),
        result.durationMs(),
        round(result.throughputMbPerSec(), 3),
        plan(plan),
        result.partitions().stream().map(ReportSections::partition).toList());
  }

  /**
   * The latency section from a measured {@code pre} and a {@code post} that is null (nothing
   * rewritten), skipped (its reason reported) or measured.
   */
  static LatencyReport latency(
      MaintenanceRequest request,
      String method,
      ProbeSettings settings,
      ProbeResult pre,
      ProbeResult post) {
    ProbeResult measuredPost = post != null && post.measured() ? post : null;
    Double speedup =
        measuredPost == null || pre.medianMs() == 0
            ? null
            : round((pre.medianMs() - measuredPost.medianMs()) / pre.medianMs() * 100, 1);
    return new LatencyReport(
        pre.medianMs(),
        measuredPost == null ? null : measuredPost.medianMs(),
        speedup,
        pre.medianMs() > request.latencySlaMs(),
        measuredPost == null ? null : measuredPost.medianMs() <= request.latencySlaMs(),
        method,
        pre.partitions(),
        pre.files(),
        measuredPost == null ? null : measuredPost.files(),
        pre.bytes(),
        measuredPost == null ? null : measuredPost.bytes(),
        pre.result(),
        measuredPost == null ? null : measuredPost.result(),
        pre.readMethod().name().toLowerCase(Locale.ROOT),
        settings.concurrency(),
        settings.maxFiles(),
        settings.maxBytes(),
        pre.runsMs().size(),
        measuredPost == null ? null : measuredPost.runsMs().size(),
        pre.budgetMs(),
        pre.usedMs() + (post == null ? 0 : post.usedMs()),
        pre.downloadedBytes() + (post == null ? 0 : post.downloadedBytes()),
        post != null && !post.measured() ? post.skipReason() : null);
  }

  static SweepReport sweep(SweepResult result) {
    return new SweepReport(
        result.failure().isPresent() ? "failed" : "done",
        result.scratchCutoff().toString(),
        result.scratchDirsSwept(),
        result.scratchBytesSwept(),
        result.scratchDirsInUse(),
        result.scratchDirsKeptYoung(),
        result.temporaryObjectCutoff().toString(),
        result.temporaryObjectsSwept(),
        result.temporaryObjectBytesSwept(),
        result.temporaryObjectsKeptYoung(),
        result.failure().orElse(null));
  }

  static VacuumReport vacuum(VacuumResult result) {
    VacuumPlan plan = result.plan();
    return new VacuumReport(
        plan.retention().hours(),
        plan.retention().source(),
        result.dryRun(),
        plan.mode().name().toLowerCase(Locale.ROOT),
        plan.cutoff().toString(),
        plan.candidates().size(),
        plan.bytes(),
        plan.candidates().stream().limit(20).map(VacuumCandidate::path).toList(),
        result.deletedFiles(),
        plan.keptYoungObjects(),
        plan.keptUnexpiredTombstones(),
        plan.keptHidden(),
        result.startVersion(),
        result.endVersion(),
        plan.warnings(),
        result.skippedReason());
  }

  private static CompactionPartitionReport partition(PartitionResult p) {
    return new CompactionPartitionReport(
        p.partition().label(),
        p.partition().values(),
        p.status().name().toLowerCase(Locale.ROOT),
        p.committedVersion(),
        p.filesRemoved(),
        p.filesAdded(),
        p.bytesRemoved(),
        p.bytesAdded(),
        p.rows(),
        p.detail(),
        p.hookFailures());
  }

  private static double round(double value, int decimals) {
    double scale = Math.pow(10, decimals);
    return Math.round(value * scale) / scale;
  }
}
