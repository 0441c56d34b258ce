package dev.lake.query.vector;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * The end of a {@link VectorPlan#rowsOnly() rows-only} plan's execution (a join tree that is the build side of another
 * vectorized join): the splits run on the pool (at most {@code inFlight} at a time), each collecting the rows its
 * pipeline kept into one batch, handed to {@code done} on the calling thread as the split finishes — in no particular
 * order; then the build rows of the plan's outer joins that keep them and that no probe row matched. Nothing is
 * grouped or deduplicated: a row the pipeline yields twice comes out twice. Each batch is copied as it comes: a
 * batch read from a Lance scan (not from the column cache) is valid only while the sink is called.
 */
final class SplitRows {
  private SplitRows() {}

  static void collect(List<SplitWork> work, List<Op> before, int width, Executor pool, int inFlight,
      Consumer<Batch> done) throws Exception {
    List<Callable<Batch>> tasks = new ArrayList<>();
    for (SplitWork split : work) {
      tasks.add(() -> {
        List<Batch> kept = new ArrayList<>();
        split.feed(batch -> {
          if (batch.size() > 0) {
            // copied now: a batch of a Lance scan is valid only during this call
            kept.add(Batches.owned(batch, width));
          }
        });
        return kept.isEmpty() ? null : Batches.concat(kept, width);
      });
    }
    ParallelTasks.run(pool, tasks, batch -> {
      if (batch != null) {
        done.accept(batch);
      }
    }, inFlight);
    List<Batch> unmatched = new ArrayList<>();
    OuterProbe.addUnmatchedBuildRows(before, batch -> {
      if (batch.size() > 0) {
        unmatched.add(batch);
      }
    });
    if (!unmatched.isEmpty()) {
      done.accept(Batches.concat(unmatched, width));
    }
  }
}
