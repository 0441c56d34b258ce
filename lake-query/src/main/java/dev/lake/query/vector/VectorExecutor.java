package dev.lake.query.vector;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a {@link VectorPlan}. When the table's needed columns fit the runtime's {@link ColumnCache}, each fragment's
 * columns come from the cache (read from Lance once per fragment) and splits of them are filtered and
 * aggregated in one pass. Otherwise each fragment is scanned (one Lance scan of every needed column; the filter
 * pushed into Lance only when sampling says it is selective). Either way splits aggregate into partial
 * {@link HashAggregate}s on the runtime's pool, at most two per worker at a time for this query; partials are merged
 * on the calling thread, then the post-aggregate operators, the sort and the limit run on the grouped rows
 * ({@link SplitAggregation}). A rows-only plan's splits hand their rows on instead ({@link SplitRows}).
 */
public final class VectorExecutor {
  private static final Logger LOG = LoggerFactory.getLogger(VectorExecutor.class);
  private static final long SAMPLE_ROWS = 65_536;
  /** Rows an operator pipeline handles at a time: its working columns stay in the CPU caches. */
  private static final int CHUNK_ROWS = 4_096;
  /** What one cached value takes on the heap, for deciding whether a table's columns fit the cache. */
  private static final long ESTIMATED_BYTES_PER_VALUE = 8;
  /** What one scanned value takes in a Lance batch (Arrow buffers, validity, offsets; decimals are 16 bytes). */
  private static final long SCAN_BYTES_PER_VALUE = 16;
  /** The fewest rows a scan batch is cut to under a small memory limit. */
  private static final int MIN_SCAN_ROWS = 1_024;

  private final VectorRuntime runtime;
  private final int batchSize;
  private final RepeatedScans repeated = new RepeatedScans();

  public VectorExecutor(VectorRuntime runtime, int batchSize) {
    this.runtime = runtime;
    this.batchSize = batchSize;
  }

  /**
   * The result, column by column, sorted and cut ({@link VectorResult}: written into Arrow batches from there); a
   * {@link VectorPlan#rowsOnly() rows-only} plan's rows in no particular order.
   */
  public VectorResult run(VectorPlan plan, FragmentScans scans) throws Exception {
    int inFlight = scansInFlight(scans, plan.columns().size());
    if (!plan.rowsOnly()) {
      return execute(plan, scans, work -> SplitAggregation.aggregate(plan, scans, work, runtime.pool(), inFlight));
    }
    List<Batch> batches = new ArrayList<>();
    execute(plan, scans, work -> {
      SplitRows.collect(work, plan.before(), plan.output().size(), runtime.pool(), inFlight, batches::add);
      return null;
    });
    return batches.isEmpty() ? VectorResult.empty(plan) : VectorResult.of(Batches.concat(batches, plan.output().size()),
        plan);
  }

  /**
   * Runs a {@link VectorPlan#rowsOnly() rows-only} plan, handing its rows to {@code chunks} on the calling thread a
   * chunk at a time (a split's rows, each value checked like {@link #run}'s), in no particular order.
   */
  public void collect(VectorPlan plan, FragmentScans scans, Consumer<VectorResult> chunks) throws Exception {
    if (!plan.rowsOnly()) {
      throw new IllegalArgumentException("only a rows-only plan hands its rows on unaggregated");
    }
    int inFlight = scansInFlight(scans, plan.columns().size());
    execute(plan, scans, work -> {
      SplitRows.collect(work, plan.before(), plan.output().size(), runtime.pool(), inFlight,
          batch -> chunks.accept(VectorResult.of(batch, plan)));
      return null;
    });
  }

  /** What an execution does with its splits' rows: aggregates them, or hands them on. */
  @FunctionalInterface
  private interface Terminal {
    VectorResult finish(List<SplitWork> work) throws Exception;
  }

  private VectorResult execute(VectorPlan plan, FragmentScans scans, Terminal terminal) throws Exception {
    List<Integer> fragments = scans.fragmentIds();
    if (cacheable(plan, scans, fragments)) {
      return runCached(plan, scans, fragments, terminal);
    }
    Optional<String> pushed = plan.lanceFilter();
    List<Op> before = new ArrayList<>(plan.before());
    if (pushed.isPresent() && plan.scanFilter().isPresent() && !fragments.isEmpty()) {
      // the sample reads the first fragment only: its result is the first fragment's, kept across versions
      double kept = runtime.selectivity(scans.fragmentKey(fragments.get(0)), pushed.get(),
          () -> sample(plan, scans, fragments.get(0)));
      if (kept > VectorRuntime.ONE_PASS_SELECTIVITY) {
        before.add(0, plan.scanFilter().get());
        pushed = Optional.empty();
      }
      LOG.debug("vectorized scan table={} selectivity={} scan={}", plan.table(), kept,
          pushed.isPresent() ? "lance-filter" : "one-pass");
    }
    Optional<String> filter = pushed;
    int cut = firstSpilled(before, 0);
    List<Op> prefix = cut < 0 ? before : before.subList(0, cut);
    List<SplitWork> work = new ArrayList<>();
    for (Split split : splits(scans, fragments, pushed.isEmpty())) {
      work.add(sink -> scanFragment(plan, scans, filter, split, prefix, sink));
    }
    return cut < 0 ? terminal.finish(work) : staged(plan, scans, work, before, cut, terminal);
  }

  /**
   * Whether the plan reads its columns through the {@link ColumnCache}: the cache is on, the scan condition (if any)
   * runs here, and the columns of the whole table fit in half the cache (a bigger scan would only evict others).
   */
  private boolean cacheable(VectorPlan plan, FragmentScans scans, List<Integer> fragments) {
    return (plan.lanceFilter().isEmpty() || plan.scanFilter().isPresent())
        && fitsCache(plan.columns(), scans, fragments);
  }

  /**
   * Whether the columns {@code names} of {@code fragments}, held as the cache holds them, take at most half the
   * cache. Eight bytes a value surely fits and one byte a value surely does not; in between the answer depends on
   * how narrow the columns are held ({@link CachedColumn}), which the cache learns from the first and the last
   * fragment (loaded and cached here when it has not seen them) and assumes of the others. False when that fails:
   * the query then reads Lance.
   */
  private boolean fitsCache(List<String> names, FragmentScans scans, List<Integer> fragments) {
    ColumnCache cache = runtime.cache();
    if (!cache.enabled() || fragments.isEmpty()) {
      return cache.enabled();
    }
    List<String> distinct = names.stream().distinct().toList();
    long rows = 0;
    for (int fragment : fragments) {
      rows += scans.fragmentRows(fragment);
    }
    long budget = cache.maxBytes() / 2;
    if (rows * ESTIMATED_BYTES_PER_VALUE * distinct.size() <= budget) {
      return true;
    }
    if (rows * distinct.size() > budget) {
      return false;
    }
    double perRow = 0;
    try {
      double[] widths = new double[distinct.size()];
      for (int fragment : new int[] {fragments.get(0), fragments.get(fragments.size() - 1)}) {
        for (int c = 0; c < widths.length; c++) {
          java.util.OptionalDouble width = cache.width(scans.fragmentKey(fragment), distinct.get(c));
          if (width.isEmpty()) {
            cachedColumns(distinct, scans, fragment);
            width = cache.width(scans.fragmentKey(fragment), distinct.get(c));
          }
          widths[c] = Math.max(widths[c], width.orElse(ESTIMATED_BYTES_PER_VALUE));
        }
      }
      for (double width : widths) {
        perRow += width;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } catch (Exception e) {
      return false;
    }
    return rows * perRow <= budget;
  }

  /** Whether {@code scan}'s columns of the table fit the column cache (its rows can come from there). */
  public boolean cacheable(CachedScan scan, FragmentScans scans) {
    return fitsCache(scan.columns(), scans, scans.fragmentIds());
  }

  /**
   * The rows of {@code scan} from cached columns (loaded first where missing), filtered here, in chunks whose
   * columns are given as {@code types} say; produced as they are consumed. Check {@link #cacheable} first.
   */
  public Iterator<VectorResult> scanChunks(CachedScan scan, List<VectorPlan.Output> types,
      FragmentScans scans) throws Exception {
    List<Integer> fragments = scans.fragmentIds();
    return rows(scan, types, fragments, cachedColumns(scan.columns(), scans, fragments), scans, Long.MAX_VALUE, 1);
  }

  /**
   * The rows of a statement that is one scan ({@code scan}, at most {@code limit} of them) from the column cache, in
   * the table's order, in chunks of about {@code chunkRows} rows; empty when the caller is to read Lance instead.
   * The cache serves it when every fragment's columns are cached; when some are not, the scan reads Lance until
   * {@link RepeatedScans} has one load them (when they fit the cache). With a
   * key equality ({@link CachedScan#key}) only the rows its column's {@link KeyPositions} give are read: a point query
   * costs a binary search per fragment.
   */
  public Optional<Iterator<VectorResult>> scanRows(CachedScan scan, List<VectorPlan.Output> types,
      long limit, int chunkRows, FragmentScans scans) throws Exception {
    List<Integer> fragments = scans.fragmentIds();
    if (!runtime.cache().enabled()) {
      return Optional.empty();
    }
    Map<Integer, CachedColumn[]> columns = new HashMap<>();
    for (int fragment : fragments) {
      CachedColumn[] hit = cachedOnly(scan.columns(), scans, fragment);
      if (hit == null) {
        columns = null;
        break;
      }
      columns.put(fragment, hit);
    }
    if (columns == null) {
      String key = scans.versionKey() + "\0" + String.join("\0", scan.columns());
      if (!repeated.load(key)) {
        return Optional.empty();
      }
      try {
        if (!fitsCache(scan.columns(), scans, fragments)) {
          return Optional.empty();
        }
        columns = cachedColumns(scan.columns(), scans, fragments);
      } finally {
        repeated.loaded(key);
      }
    }
    return Optional.of(rows(scan, types, fragments, columns, scans, limit, chunkRows));
  }

  private CachedRows rows(CachedScan scan, List<VectorPlan.Output> types, List<Integer> fragments,
      Map<Integer, CachedColumn[]> columns, FragmentScans scans, long limit, int chunkRows) {
    return new CachedRows(scan, types, fragments, columns, CachedRows.keyRows(scan, fragments, columns,
        runtime.cache(), scans), limit, chunkRows);
  }

  /**
   * Adds the rows of {@code scan} to {@code builder} from cached columns (loaded first where missing), the filter
   * evaluated here; false (nothing added) when the columns do not fit the cache — the caller then scans Lance.
   */
  private boolean buildFromCache(CachedScan scan, FragmentScans scans, JoinBuilder builder) throws Exception {
    List<Integer> fragments = scans.fragmentIds();
    if (!fitsCache(scan.columns(), scans, fragments)) {
      return false;
    }
    Map<Integer, CachedColumn[]> columns = cachedColumns(scan.columns(), scans, fragments);
    for (int fragment : fragments) {
      CachedColumn[] cached = columns.get(fragment);
      int rows = cached[0].rows;
      for (int start = 0; start < rows; start += CHUNK_ROWS) {
        if (Thread.currentThread().isInterrupted()) {
          throw new InterruptedException("a vectorized join's build scan was cancelled");
        }
        Batch batch = ScanBatch.range(cached, start, Math.min(rows, start + CHUNK_ROWS));
        if (scan.filter().isPresent()) {
          batch = scan.filter().get().apply(batch);
        }
        builder.add(batch, scan.outputs());
      }
    }
    return true;
  }

  /**
   * The join table of the rows of {@code scan} ({@code rows} names them: the scan's columns and condition, the
   * table's keys and shapes), built from cached columns by a builder from {@code builders} once per set of fragments
   * and then shared by every execution that builds the same ({@link ColumnCache#joinTable}); null when the columns do
   * not fit the cache — the caller then scans Lance.
   */
  public JoinTable sharedBuild(CachedScan scan, String rows, FragmentScans scans,
      java.util.function.Supplier<JoinBuilder> builders) throws Exception {
    List<Integer> fragments = scans.fragmentIds();
    if (!fitsCache(scan.columns(), scans, fragments)) {
      return null;
    }
    List<String> keys = new ArrayList<>(fragments.size());
    for (int fragment : fragments) {
      keys.add(scans.fragmentKey(fragment));
    }
    return runtime.cache().joinTable(keys, rows, () -> {
      JoinBuilder builder = builders.get();
      JoinTable table = null;
      try {
        table = buildFromCache(scan, scans, builder) ? builder.finish() : null;
        return table;
      } finally {
        if (table == null) {
          builder.abandon();
        }
      }
    });
  }

  /**
   * One pass over every fragment's cached columns (missing ones loaded from Lance first, a fragment per worker), the
   * scan condition evaluated here, splits of {@link VectorRuntime#splitRows()} rows aggregated in parallel.
   */
  private VectorResult runCached(VectorPlan plan, FragmentScans scans, List<Integer> fragments, Terminal terminal)
      throws Exception {
    List<Op> before = new ArrayList<>(plan.before());
    plan.scanFilter().ifPresent(filter -> before.add(0, filter));
    Map<Integer, CachedColumn[]> columns = cachedColumns(plan.columns(), scans, fragments);
    int cut = firstSpilled(before, 0);
    List<Op> prefix = cut < 0 ? before : before.subList(0, cut);
    List<SplitWork> work = new ArrayList<>();
    long splitRows = Math.max(CHUNK_ROWS, runtime.splitRows());
    for (int fragment : fragments) {
      CachedColumn[] cached = columns.get(fragment);
      int rows = cached[0].rows;
      for (int from = 0; from < rows; from += (int) splitRows) {
        int start = from;
        int end = (int) Math.min(rows, from + splitRows);
        work.add(sink -> aggregateCached(cached, start, end, prefix, sink));
      }
    }
    return cut < 0 ? terminal.finish(work) : staged(plan, scans, work, before, cut, terminal);
  }

  /** The position of the first join in {@code ops} from {@code from} on whose build side spilled, or -1. */
  private static int firstSpilled(List<Op> ops, int from) {
    for (int i = from; i < ops.size(); i++) {
      if (ops.get(i) instanceof SpilledProbe) {
        return i;
      }
    }
    return -1;
  }

  /**
   * A pipeline cut at a spilled join ({@code before.get(cut)}, a grace hash join): every split's rows reaching it
   * are written to its probe partitions first; then each partition is joined alone and the rest of the pipeline runs
   * on its rows (up to the next spilled join, which is staged the same way), into the aggregate.
   */
  private VectorResult staged(VectorPlan plan, FragmentScans scans, List<SplitWork> work, List<Op> before, int cut,
      Terminal terminal) throws Exception {
    SpilledProbe join = (SpilledProbe) before.get(cut);
    List<Callable<Boolean>> tasks = new ArrayList<>();
    for (SplitWork split : work) {
      tasks.add(() -> {
        split.feed(join::write);
        return true;
      });
    }
    parallel(tasks, done -> { }, scansInFlight(scans, plan.columns().size()));
    join.finishProbe();
    int next = firstSpilled(before, cut + 1);
    List<Op> rest = before.subList(cut + 1, next < 0 ? before.size() : next);
    List<SplitWork> partitions = new ArrayList<>();
    for (int p = 0; p < SpilledProbe.partitions(); p++) {
      int partition = p;
      partitions.add(sink -> join.joinPartition(partition, rest, sink));
    }
    LOG.info("vectorized join spilled table={} partitions={}", plan.table(), partitions.size());
    return next < 0 ? terminal.finish(partitions) : staged(plan, scans, partitions, before, next, terminal);
  }

  /** {@code names} of every fragment from the cache, missing ones loaded a fragment per worker. */
  private Map<Integer, CachedColumn[]> cachedColumns(List<String> names, FragmentScans scans, List<Integer> fragments)
      throws Exception {
    Map<Integer, CachedColumn[]> columns = new HashMap<>();
    List<Callable<Map.Entry<Integer, CachedColumn[]>>> loads = new ArrayList<>();
    for (int fragment : fragments) {
      CachedColumn[] hit = cachedOnly(names, scans, fragment);
      if (hit != null) {
        columns.put(fragment, hit);
      } else {
        loads.add(() -> Map.entry(fragment, cachedColumns(names, scans, fragment)));
      }
    }
    if (!loads.isEmpty()) {
      parallel(loads, loaded -> columns.put(loaded.getKey(), loaded.getValue()), scansInFlight(scans, names.size()));
    }
    return columns;
  }

  /** The columns of one fragment when all are cached (no task needed), else null. */
  private CachedColumn[] cachedOnly(List<String> names, FragmentScans scans, int fragment) {
    CachedColumn[] out = new CachedColumn[names.size()];
    for (int c = 0; c < out.length; c++) {
      out[c] = runtime.cache().peek(scans.fragmentKey(fragment), names.get(c));
      if (out[c] == null) {
        return null;
      }
    }
    for (int c = 0; c < out.length; c++) {
      runtime.cache().get(scans.fragmentKey(fragment), names.get(c));
    }
    return out;
  }

  /** Columns of one fragment from the cache; those missing are read from Lance in one scan and cached. */
  private CachedColumn[] cachedColumns(List<String> names, FragmentScans scans, int fragment) throws Exception {
    return runtime.cache().load(names, scans, fragment, scanBatchRows(scans, names.size()));
  }

  private static void aggregateCached(CachedColumn[] cached, int from, int to, List<Op> before,
      Consumer<Batch> sink) throws InterruptedException {
    for (int start = from; start < to; start += CHUNK_ROWS) {
      if (Thread.currentThread().isInterrupted()) {
        throw new InterruptedException("vectorized scan cancelled");
      }
      Batch batch = ScanBatch.range(cached, start, Math.min(to, start + CHUNK_ROWS));
      for (Op op : before) {
        batch = op.apply(batch);
      }
      sink.accept(batch);
    }
  }

  /**
   * Rows per Lance batch of a scan of {@code columns} columns under the query's memory limit: a batch takes at most an
   * eighth of it (estimated at {@link #SCAN_BYTES_PER_VALUE} per value), so small limits read smaller batches.
   */
  private int scanBatchRows(FragmentScans scans, int columns) {
    long limit = scans.allocator().getLimit();
    long rows = limit / 8 / (Math.max(1, columns) * SCAN_BYTES_PER_VALUE);
    return (int) Math.max(MIN_SCAN_ROWS, Math.min(batchSize, rows));
  }

  /**
   * How many scans of {@code columns} columns may run at once under the query's memory limit: each holds about two
   * batches ({@link #scanBatchRows}), and all of them together at most half the limit; two per worker at most.
   */
  private int scansInFlight(FragmentScans scans, int columns) {
    long perScan = 2L * scanBatchRows(scans, columns) * Math.max(1, columns) * SCAN_BYTES_PER_VALUE;
    long fit = scans.allocator().getLimit() / 2 / perScan;
    return (int) Math.max(1, Math.min(2L * runtime.threads(), fit));
  }

  /**
   * Runs {@code tasks} on the runtime's pool, at most {@code maxInFlight} at a time, handing each result to
   * {@code done} on the calling thread; the first failure cancels the rest and is thrown.
   */
  private <T> void parallel(List<Callable<T>> tasks, Consumer<T> done, int maxInFlight) throws Exception {
    ParallelTasks.run(runtime.pool(), tasks, done, maxInFlight);
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

  private void scanFragment(VectorPlan plan, FragmentScans scans, Optional<String> filter, Split split,
      List<Op> before, Consumer<Batch> sink) throws Exception {
    ArrowReader reader = null;
    try {
      reader = scans.open(plan.columns(), filter, List.of(split.fragment()), split.offset(), split.limit(),
          scanBatchRows(scans, plan.columns().size()));
      while (reader.loadNextBatch()) {
        if (Thread.currentThread().isInterrupted()) {
          throw new InterruptedException("vectorized scan cancelled");
        }
        VectorSchemaRoot root = reader.getVectorSchemaRoot();
        LoadedColumn[] loaded = LoadedColumn.of(root.getFieldVectors());
        for (int from = 0; from < root.getRowCount(); from += CHUNK_ROWS) {
          int to = Math.min(root.getRowCount(), from + CHUNK_ROWS);
          Batch batch = ScanBatch.range(loaded, from, to);
          for (Op op : before) {
            batch = op.apply(batch);
          }
          sink.accept(batch);
        }
      }
    } finally {
      if (reader != null) {
        scans.release(reader);
      }
    }
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
        kept += filter.apply(ScanBatch.all(root.getFieldVectors(), root.getRowCount())).size();
      }
      return rows == 0 ? 0 : (double) kept / rows;
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    } finally {
      scans.release(reader);
    }
  }
}
