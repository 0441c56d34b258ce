package dev.lake.query.vector;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The end of an aggregating {@link VectorPlan}'s execution: the splits' rows hash-aggregated into partial
 * {@link HashAggregate}s on the pool (at most {@code inFlight} splits at a time), merged on the calling thread, then
 * the operators after the aggregate and the sort. In memory first; when the groups outgrow the query's memory limit
 * and the query may spill, again with the rows partitioned to disk by group key ({@link PartitionedAggregate}).
 */
final class SplitAggregation {
  private static final Logger LOG = LoggerFactory.getLogger(SplitAggregation.class);

  private SplitAggregation() {}

  static VectorResult aggregate(VectorPlan plan, FragmentScans scans, List<SplitWork> work, Executor pool,
      int inFlight) throws Exception {
    try {
      return aggregateInMemory(plan, scans, work, pool, inFlight);
    } catch (StateMemoryException e) {
      if (!spillsGroups(plan, scans)) {
        throw e;
      }
      LOG.info("vectorized aggregate spills table={} reason={}", plan.table(), e.getMessage());
      return aggregateSpilled(plan, scans, work, pool, inFlight);
    }
  }

  private static VectorResult aggregateSpilled(VectorPlan plan, FragmentScans scans, List<SplitWork> work,
      Executor pool, int inFlight) throws Exception {
    try (PartitionedAggregate partitions = PartitionedAggregate.of(plan, scans.spill(), scans.allocator())) {
      List<Callable<Boolean>> tasks = new ArrayList<>();
      for (SplitWork split : work) {
        tasks.add(() -> {
          split.feed(partitions::add);
          return true;
        });
      }
      ParallelTasks.run(pool, tasks, done -> { }, inFlight);
      OuterProbe.addUnmatchedBuildRows(plan.before(), partitions::add);
      // Row by row operators (HAVING, projections) run per partition; an aggregate over the groups needs them all.
      boolean perPartition = plan.after().stream().noneMatch(op -> op instanceof Op.Regroup);
      UnaryOperator<Batch> after = grouped -> {
        Batch out = grouped;
        for (Op op : plan.after()) {
          out = op.apply(out);
        }
        return out;
      };
      List<Batch> groups = partitions.results(perPartition ? after : UnaryOperator.identity());
      if (perPartition) {
        return VectorResult.of(Batches.concat(groups, plan.output().size()), plan);
      }
      return VectorResult.of(after.apply(Batches.concat(groups, plan.keys().length + plan.aggregates().size())),
          plan);
    }
  }

  /**
   * Runs the partial aggregations, merges them, then the operators after the aggregate and the sort. A partial is
   * reused by the next split a worker takes (at most one per split running at a time), so the merge folds as many
   * partials as ran side by side, not one per split: with many groups the merge, single-threaded, was a third of
   * the query (TPC-H Q13's and Q16's 100,000 groups in twenty-odd splits each holding most of them).
   */
  private static VectorResult aggregateInMemory(VectorPlan plan, FragmentScans scans, List<SplitWork> work,
      Executor pool, int inFlight) throws Exception {
    List<Callable<HashAggregate>> tasks = new ArrayList<>();
    // every partial made, closed at the end whatever happened (a task cancelled after it finished keeps its result)
    List<HashAggregate> partials = java.util.Collections.synchronizedList(new ArrayList<>());
    // partials no split is feeding now; a split that fails leaves its partial out (the query fails)
    java.util.Queue<HashAggregate> idle = new java.util.concurrent.ConcurrentLinkedQueue<>();
    for (SplitWork split : work) {
      tasks.add(() -> {
        HashAggregate partial = idle.poll();
        if (partial == null) {
          partial = newAggregate(plan, scans);
          partials.add(partial);
        }
        split.feed(partial::add);
        idle.add(partial);
        return partial;
      });
    }
    try {
      ParallelTasks.run(pool, tasks, partial -> { }, inFlight);
      HashAggregate total = idle.poll();
      if (total == null) { // no splits
        total = newAggregate(plan, scans);
        partials.add(total);
      }
      for (HashAggregate partial = idle.poll(); partial != null; partial = idle.poll()) {
        total.merge(partial);
        partial.close();
      }
      OuterProbe.addUnmatchedBuildRows(plan.before(), total::add);
      Batch grouped = total.result();
      for (Op op : plan.after()) {
        grouped = op.apply(grouped);
      }
      return VectorResult.of(grouped, plan);
    } finally {
      synchronized (partials) {
        partials.forEach(HashAggregate::close);
      }
    }
  }

  /** An in-memory aggregate; one that spills when refused (see {@link #aggregate}) leaves the streaming reserve. */
  private static HashAggregate newAggregate(VectorPlan plan, FragmentScans scans) {
    return new HashAggregate(plan.keys(), plan.keyShapes(), plan.aggregates(), plan.argShapes(),
        spillsGroups(plan, scans) ? MemoryBudget.spillable(scans.allocator()) : new MemoryBudget(scans.allocator()));
  }

  /** Whether the aggregate goes on partitioned to disk when its groups outgrow memory: it has keys and may spill. */
  private static boolean spillsGroups(VectorPlan plan, FragmentScans scans) {
    return plan.keys().length > 0 && scans.spill() != null && scans.spill().enabled();
  }
}
