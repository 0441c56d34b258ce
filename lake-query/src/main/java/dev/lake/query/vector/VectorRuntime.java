package dev.lake.query.vector;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.DoubleSupplier;

/**
 * What vectorized executions share on one node: a bounded, named pool of scan-and-aggregate workers (one per
 * core), the sampled selectivity of pushed filters, cached per (sampled fragment's key, filter), and the
 * {@link ColumnCache}.
 * Close it at shutdown.
 *
 * @see VectorExecutor
 */
public final class VectorRuntime implements AutoCloseable {
  /**
   * Filters keeping more than this share of rows are evaluated here in a one-pass scan, not pushed into Lance (whose
   * filtered scan reads the filter columns, then fetches the others by row id). Measured on TPC-H SF 1 lineitem:
   * Q1's filter keeps 98.6% of rows and runs faster in one pass; Q6's keeps 1.9% and runs faster pushed into Lance
   * (130 ms against 213 ms in one pass).
   */
  public static final double ONE_PASS_SELECTIVITY = 0.05;
  /** Rows of one split of a fragment scanned without a Lance filter, by default. */
  public static final long DEFAULT_SPLIT_ROWS = 262_144;

  private final ThreadPoolExecutor pool;
  private final Cache<String, Double> selectivity = Caffeine.newBuilder().maximumSize(10_000).build();

  private final long splitRows;
  private final ColumnCache cache;

  /**
   * A runtime without a column cache.
   *
   * @param threads workers in the pool
   * @param splitRows rows of one split when a table of few fragments is scanned without a Lance filter
   */
  public VectorRuntime(int threads, long splitRows) {
    this(threads, splitRows, new ColumnCache(0));
  }

  /**
   * @param threads workers in the pool
   * @param splitRows rows of one split when a table of few fragments is scanned without a Lance filter (and of one
   *     split of cached columns)
   * @param cache decoded columns shared by the executions on this runtime
   */
  public VectorRuntime(int threads, long splitRows, ColumnCache cache) {
    this.cache = java.util.Objects.requireNonNull(cache, "cache");
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be positive, was " + threads);
    }
    if (splitRows < 1) {
      throw new IllegalArgumentException("splitRows must be positive, was " + splitRows);
    }
    this.splitRows = splitRows;
    AtomicInteger counter = new AtomicInteger();
    ThreadFactory factory = task -> {
      Thread thread = new Thread(task, "lake-vector-" + counter.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
    this.pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
        factory);
    pool.allowCoreThreadTimeOut(true);
  }

  /** A pool sized to the machine's cores, with a column cache of a quarter of the heap. */
  public static VectorRuntime forCores() {
    return forCores(ColumnCache.quarterOfHeap());
  }

  /** A pool sized to the machine's cores, with the given column cache. */
  public static VectorRuntime forCores(ColumnCache cache) {
    return new VectorRuntime(Runtime.getRuntime().availableProcessors(), DEFAULT_SPLIT_ROWS, cache);
  }

  /** The decoded columns executions on this runtime share. */
  public ColumnCache cache() {
    return cache;
  }

  long splitRows() {
    return splitRows;
  }

  int threads() {
    return pool.getMaximumPoolSize();
  }

  ExecutorService pool() {
    return pool;
  }

  /**
   * The share of rows {@code filter} keeps on the sampled fragment (keyed by {@link FragmentScans#fragmentKey}),
   * sampled once.
   */
  double selectivity(String fragmentKey, String filter, DoubleSupplier sample) {
    return selectivity.get(fragmentKey + "\u0000" + filter, key -> sample.getAsDouble());
  }

  /** The cached selectivity, if sampled already (for EXPLAIN and tests). */
  public java.util.Optional<Double> knownSelectivity(String fragmentKey, String filter) {
    return java.util.Optional.ofNullable(selectivity.getIfPresent(fragmentKey + "\u0000" + filter));
  }

  @Override
  public void close() {
    pool.shutdownNow();
  }
}
