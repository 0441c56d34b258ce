package dev.lake.query.exec;

import dev.lake.query.vector.CachedScan;
import dev.lake.query.vector.FragmentScans;
import dev.lake.query.vector.JoinBuilder;
import dev.lake.query.vector.VectorExecutor;
import dev.lake.query.vector.VectorPlan;
import dev.lake.query.vector.VectorResult;
import dev.lake.query.plan.vector.VectorRows;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.calcite.linq4j.Linq4j;
import dev.lake.engine.TableSnapshot;
import dev.lake.query.plan.types.ColumnType;
import dev.lake.query.plan.types.RowShape;
import dev.lake.query.plan.lance.ScanSource;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.calcite.linq4j.Enumerable;

/** Scans one opened snapshot for a statement; every reader it opens is tracked by the statement's resources. */
final class LanceScanSource implements ScanSource {
  private final TableSnapshot snapshot;
  private final QueryResources resources;
  private final int batchSize;
  private final PushdownCounters counters;
  private final VectorExecutor vectors;

  LanceScanSource(TableSnapshot snapshot, QueryResources resources, int batchSize, PushdownCounters counters,
      VectorExecutor vectors) {
    this.vectors = vectors;
    this.counters = counters;
    this.snapshot = snapshot;
    this.resources = resources;
    this.batchSize = batchSize;
  }

  @Override
  public Enumerable<Object> rows(List<String> columns, Supplier<Optional<String>> filter, Optional<Long> limit,
      RowShape shape) {
    List<String> scanned = columns.isEmpty() ? List.of(snapshot.schema().getFields().get(0).getName()) : columns;
    return new ReplayableRows(
        () -> new LanceRowEnumerator(() -> batches(scanned, filter.get(), limit), resources, columns.size(), shape));
  }

  @Override
  public ArrowReader batches(List<String> columns, Optional<String> filter, Optional<Long> limit) {
    if (columns.isEmpty()) {
      throw new IllegalArgumentException("a pass-through scan needs at least one column");
    }
    if (WideScan.applies(snapshot, filter)) {
      return resources.track(WideScan.of(snapshot, resources, columns, limit, batchSize));
    }
    return resources.track(snapshot.scan(columns, filter, limit, batchSize));
  }

  @Override
  public Enumerable<Object> sqlRows(String sql, List<ColumnType> columns, RowShape shape,
      Supplier<Enumerable<Object>> fallback) {
    return new ReplayableRows(
        () -> new LanceSqlRowEnumerator(sql, () -> sql(sql), resources, columns, shape, fallback, counters));
  }

  @Override
  public Enumerable<Object> vectorRows(VectorPlan plan, RowShape shape) {
    // Replayable: a nested-loop join enumerates its inner input once per outer row; it is computed once.
    return new ReplayableRows(() -> Linq4j.iterableEnumerator(VectorRows.of(vectorResult(plan), shape)));
  }

  /** Runs a vectorized plan on this snapshot; counted like a pushed-down statement. */
  @Override
  public VectorResult vectorResult(VectorPlan plan) {
    return vectorized(plan, () -> vectors.run(plan, fragmentScans()));
  }

  @Override
  public void vectorCollect(VectorPlan plan, java.util.function.Consumer<VectorResult> chunks) {
    vectorized(plan, () -> {
      vectors.collect(plan, fragmentScans(), chunks);
      return null;
    });
  }

  /** Runs {@code work} (a vectorized scan of {@code plan}) and counts it. */
  private <T> T vectorized(VectorPlan plan, java.util.concurrent.Callable<T> work) {
    T result = unchecked(work, "its vectorized scan ran", "the vectorized scan of " + plan.table());
    counters.vectorized();
    return result;
  }

  /**
   * {@code work}'s result, its checked failures unchecked: an interruption (the thread's flag set again) says the
   * query was cancelled while {@code during}, any other failure that {@code what} failed.
   */
  private static <T> T unchecked(java.util.concurrent.Callable<T> work, String during, String what) {
    try {
      return work.call();
    } catch (RuntimeException e) {
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("the query was cancelled while " + during, e);
    } catch (Exception e) {
      throw new IllegalStateException(what + " failed: " + e.getMessage(), e);
    }
  }

  private FragmentScans fragmentScans() {
    return new FragmentScans() {
      @Override
      public String versionKey() {
        return snapshot.location() + "@" + snapshot.version();
      }

      @Override
      public String fragmentKey(int fragment) {
        return snapshot.fragmentKey(fragment);
      }

      @Override
      public List<Integer> fragmentIds() {
        return snapshot.fragmentIds();
      }

      @Override
      public long fragmentRows(int fragment) {
        return snapshot.fragmentRows(fragment);
      }

      @Override
      public ArrowReader open(List<String> columns, Optional<String> filter, List<Integer> fragments, long offset,
          Optional<Long> limit) {
        return open(columns, filter, fragments, offset, limit, batchSize);
      }

      @Override
      public ArrowReader open(List<String> columns, Optional<String> filter, List<Integer> fragments, long offset,
          Optional<Long> limit, int batchRows) {
        int rows = Math.max(1, Math.min(batchSize, batchRows));
        if (WideScan.applies(snapshot, filter)) {
          Optional<WideScan> wide =
              WideScan.ofFragments(snapshot, resources, columns, fragments, offset, limit, rows);
          if (wide.isPresent()) {
            return resources.track(wide.get());
          }
        }
        return resources.track(snapshot.scanFragments(columns, filter, fragments, offset, limit, rows));
      }

      @Override
      public void release(ArrowReader reader) {
        resources.release(reader);
      }

      @Override
      public BufferAllocator allocator() {
        return resources.allocator();
      }

      @Override
      public dev.lake.query.spill.SpillSpace spill() {
        return resources.spill();
      }
    };
  }

  @Override
  public BufferAllocator allocator() {
    return resources.allocator();
  }

  @Override
  public Optional<Enumerable<Object>> cachedRows(CachedScan scan, Supplier<CachedScan> atOpen,
      List<VectorPlan.Output> types, RowShape shape) {
    if (!vectors.cacheable(scan, fragmentScans())) {
      return Optional.empty();
    }
    return Optional.of(new ReplayableRows(() -> {
      java.util.Iterator<VectorResult> chunks = unchecked(() -> vectors.scanChunks(atOpen.get(), types,
          fragmentScans()), "its scan loaded cached columns", "the scan of cached columns");
      return Linq4j.iterableEnumerator(() -> VectorRows.of(chunks, shape));
    }));
  }

  @Override
  public Optional<java.util.Iterator<VectorResult>> cachedScan(dev.lake.query.plan.lance.LanceTableScan.CacheRead read,
      Optional<Long> limit, int chunkRows) {
    Optional<java.util.Iterator<VectorResult>> rows = unchecked(() -> vectors.scanRows(read.scan(), read.types(),
        limit.orElse(Long.MAX_VALUE), chunkRows, fragmentScans()), "its scan read cached columns",
        "the scan of cached columns");
    if (rows.isPresent()) {
      counters.cachedScan();
    }
    return rows;
  }

  @Override
  public dev.lake.query.spill.SpillSpace spill() {
    return resources.spill();
  }

  @Override
  public dev.lake.query.vector.JoinTable sharedBuild(CachedScan scan, String rows,
      java.util.function.Supplier<JoinBuilder> builders) {
    return unchecked(() -> vectors.sharedBuild(scan, rows, fragmentScans(), builders),
        "a vectorized join read its build side", "reading a build side of a vectorized join");
  }

  @Override
  public ArrowReader sql(String sql) {
    return resources.track(snapshot.sql(sql, SQL_TABLE));
  }
}
