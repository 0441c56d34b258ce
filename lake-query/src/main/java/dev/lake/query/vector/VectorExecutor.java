package dev.lake.query.vector;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.Future;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a {@link VectorPlan}: each fragment is scanned (one Lance scan of every needed column; the filter pushed into
 * Lance only when sampling says it is selective) and aggregated into a partial {@link HashAggregate} on the runtime's
 * pool, at most one fragment per worker at a time for this query; partials are merged on the calling thread, then
 * the post-aggregate operators, the sort and the limit run on the grouped rows.
 */
public final class VectorExecutor {
  private static final Logger LOG = LoggerFactory.getLogger(VectorExecutor.class);
  private static final long SAMPLE_ROWS = 65_536;
  /** Rows an operator pipeline handles at a time: its working columns stay in the CPU caches. */
  private static final int CHUNK_ROWS = 4_096;

  private final VectorRuntime runtime;
  private final int batchSize;

  public VectorExecutor(VectorRuntime runtime, int batchSize) {
    this.runtime = runtime;
    this.batchSize = batchSize;
  }

  /** The result rows, in the row runtime's representation ({@link ResultRows}). */
  public List<Object[]> run(VectorPlan plan, FragmentScans scans) throws Exception {
    List<Integer> fragments = scans.fragmentIds();
    Optional<String> pushed = plan.lanceFilter();
    List<Op> before = new ArrayList<>(plan.before());
    if (pushed.isPresent() && plan.scanFilter().isPresent() && !fragments.isEmpty()) {
      double kept = runtime.selectivity(scans.versionKey(), pushed.get(),
          () -> sample(plan, scans, fragments.get(0)));
      if (kept > VectorRuntime.ONE_PASS_SELECTIVITY) {
        before.add(0, plan.scanFilter().get());
        pushed = Optional.empty();
      }
      LOG.debug("vectorized scan table={} selectivity={} scan={}", plan.table(), kept,
          pushed.isPresent() ? "lance-filter" : "one-pass");
    }
    try (HashAggregate total = newAggregate(plan, scans)) {
      CompletionService<HashAggregate> done = new ExecutorCompletionService<>(runtime.pool());
      Deque<Split> waiting = new ArrayDeque<>(splits(scans, fragments, pushed.isEmpty()));
      List<Future<HashAggregate>> running = new ArrayList<>();
      Optional<String> filter = pushed;
      int inFlight = 0;
      try {
        while (!waiting.isEmpty() || inFlight > 0) {
          while (!waiting.isEmpty() && inFlight < runtime.threads()) {
            Split split = waiting.poll();
            running.add(done.submit(() -> scanFragment(plan, scans, filter, split, before)));
            inFlight++;
          }
          try (HashAggregate partial = done.take().get()) {
            inFlight--;
            total.merge(partial);
          }
        }
      } catch (ExecutionException e) {
        throw e.getCause() instanceof Exception ? (Exception) e.getCause() : e;
      } finally {
        running.forEach(future -> future.cancel(true));
      }
      Batch grouped = total.result();
      for (Op op : plan.after()) {
        grouped = op.apply(grouped);
      }
      return ResultRows.of(grouped, plan);
    }
  }

  /** A fragment, or a row range of one: what one worker scans and aggregates. */
  private record Split(int fragment, long offset, Optional<Long> limit) {}

  /**
   * The work of a scan: each fragment, and without a Lance filter (row positions are then physical) big fragments cut
   * into ranges of {@link VectorRuntime#splitRows()} rows, so a table of few fragments still keeps every worker busy.
   */
  private List<Split> splits(FragmentScans scans, List<Integer> fragments, boolean unfiltered) {
    List<Split> splits = new ArrayList<>();
    for (int fragment : fragments) {
      long rows = unfiltered && fragments.size() < 2 * runtime.threads() ? scans.fragmentRows(fragment) : 0;
      long splitRows = runtime.splitRows();
      if (rows <= splitRows) {
        splits.add(new Split(fragment, 0, Optional.empty()));
        continue;
      }
      for (long offset = 0; offset < rows; offset += splitRows) {
        splits.add(new Split(fragment, offset, offset + splitRows >= rows ? Optional.empty()
            : Optional.of(splitRows)));
      }
    }
    return splits;
  }

  private HashAggregate scanFragment(VectorPlan plan, FragmentScans scans, Optional<String> filter, Split split,
      List<Op> before) throws Exception {
    HashAggregate partial = newAggregate(plan, scans);
    ArrowReader reader = null;
    try {
      reader = scans.open(plan.columns(), filter, List.of(split.fragment()), split.offset(), split.limit());
      while (reader.loadNextBatch()) {
        if (Thread.currentThread().isInterrupted()) {
          throw new InterruptedException("vectorized scan cancelled");
        }
        VectorSchemaRoot root = reader.getVectorSchemaRoot();
        LoadedColumn[] loaded = LoadedColumn.of(root.getFieldVectors());
        for (int from = 0; from < root.getRowCount(); from += CHUNK_ROWS) {
          int to = Math.min(root.getRowCount(), from + CHUNK_ROWS);
          Batch batch = ArrowBatch.range(loaded, from, to);
          for (Op op : before) {
            batch = op.apply(batch);
          }
          partial.add(batch);
        }
      }
      return partial;
    } catch (Exception e) {
      partial.close();
      throw e;
    } finally {
      if (reader != null) {
        scans.release(reader);
      }
    }
  }

  private static HashAggregate newAggregate(VectorPlan plan, FragmentScans scans) {
    return new HashAggregate(plan.keys(), plan.keyShapes(), plan.aggregates(), plan.argShapes(),
        new MemoryBudget(scans.allocator()));
  }

  /** The share of a sample of the first fragment's rows that the scan condition keeps. */
  private double sample(VectorPlan plan, FragmentScans scans, int fragment) {
    ArrowReader reader = scans.open(plan.columns(), Optional.empty(), List.of(fragment), 0,
        Optional.of(SAMPLE_ROWS));
    try {
      long rows = 0;
      long kept = 0;
      Op filter = plan.scanFilter().orElseThrow();
      while (reader.loadNextBatch()) {
        VectorSchemaRoot root = reader.getVectorSchemaRoot();
        rows += root.getRowCount();
        kept += filter.apply(ArrowBatch.all(root.getFieldVectors(), root.getRowCount())).size();
      }
      return rows == 0 ? 0 : (double) kept / rows;
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    } finally {
      scans.release(reader);
    }
  }
}
