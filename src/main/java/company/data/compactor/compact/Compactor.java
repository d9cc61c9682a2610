package company.data.compactor.compact;

import company.data.compactor.model.TableSnapshot;

/** Executes compaction plans: the port the pipeline uses (implemented in {@code compact.exec}). */
public interface Compactor {

  /**
   * Rewrites the plan's bins of {@code snapshot} and commits them, one commit per partition.
   *
   * @throws company.data.compactor.error.CompactorException when the table cannot be rewritten
   *     safely or the work fails; partitions committed before the failure stay committed
   */
  CompactionResult execute(CompactionPlan plan, TableSnapshot snapshot);
}
