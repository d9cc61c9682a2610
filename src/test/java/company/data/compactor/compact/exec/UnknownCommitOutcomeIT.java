package company.data.compactor.compact.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import company.data.compactor.compact.CompactionOptions;
import company.data.compactor.compact.CompactionPlanner;
import company.data.compactor.delta.CommitOutcome;
import company.data.compactor.delta.RewriteCommit;
import company.data.compactor.delta.RewriteCommitter;
import company.data.compactor.delta.kernel.KernelDeletionVectorLoader;
import company.data.compactor.delta.kernel.KernelDeltaTables;
import company.data.compactor.delta.kernel.KernelRewriteCommitter;
import company.data.compactor.delta.kernel.TypedTables;
import company.data.compactor.error.Errors;
import company.data.compactor.model.DataFile;
import company.data.compactor.model.TableLocation;
import company.data.compactor.model.TableSnapshot;
import company.data.compactor.storage.LocalStorage;
import company.data.compactor.testing.LocalCompactions;
import io.delta.kernel.types.DoubleType;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On local storage (bins one after another on the caller's thread) a commit that landed but whose
 * outcome the committer cannot prove stops the run and keeps every file it references: the table
 * stays readable. Found while reviewing the commit lane: cleaning a partition's uploads when the
 * hand-over throws must not cover a commit the hand-over itself ran.
 */
class UnknownCommitOutcomeIT {

  @TempDir Path dir;

  @Test
  void aLandedCommitOfUnprovenOutcome_keepsEveryFileItReferences() throws Exception {
    LocalStorage local = new LocalStorage();
    TableLocation location = TableLocation.parse("t", dir);
    TypedTables typed = new TypedTables();
    typed.create(
        location,
        new StructType()
            .add("d", DoubleType.DOUBLE)
            .add("i", IntegerType.INTEGER)
            .add("p", StringType.STRING),
        "p");
    for (int a = 0; a < 6; a++) {
      typed.append(
          location,
          "p",
          "a",
          "SELECT random() AS d, CAST(r AS INTEGER) AS i FROM range("
              + (a * 1000)
              + ", "
              + (a * 1000 + 1000)
              + ") t(r)",
          "in-" + a);
    }
    KernelDeltaTables tables = new KernelDeltaTables(local);
    TableSnapshot snapshot = tables.loadLatest(location);
    KernelRewriteCommitter kernel = new KernelRewriteCommitter(local, Clock.systemUTC());
    // The commit lands, then its answer is lost and the log cannot be read to prove it.
    RewriteCommitter unproven =
        (RewriteCommit commit) -> {
          CommitOutcome landed = kernel.commitRewrite(commit);
          assertThat(landed).isInstanceOf(CommitOutcome.Committed.class);
          throw Errors.commitFailed("injected: the commit may have landed", null);
        };
    CompactionOptions options = LocalCompactions.binPack(1 << 30, 2, 64L << 20);
    CompactionExecutor executor =
        new CompactionExecutor(
            local,
            unproven,
            new KernelDeletionVectorLoader(local),
            RewriteSettings.defaults(),
            dir.resolve("scratch"),
            Clock.systemUTC());

    assertThatThrownBy(() -> executor.execute(CompactionPlanner.plan(snapshot, options), snapshot))
        .hasMessageContaining("injected");

    TableSnapshot after = tables.loadLatest(location);
    assertThat(after.version()).isEqualTo(snapshot.version() + 1);
    assertThat(after.activeFiles()).hasSize(1);
    for (DataFile file : after.activeFiles()) {
      assertThat(Files.exists(local.localFile(file.path()).orElseThrow()))
          .as("the landed commit's file " + file.path())
          .isTrue();
    }
  }
}
