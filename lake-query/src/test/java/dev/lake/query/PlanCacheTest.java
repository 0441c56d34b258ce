package dev.lake.query;

import dev.lake.query.model.TablePin;
import static dev.lake.query.Rows.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.registry.TableRegistration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/**
 * The plan cache: statements are validated once per (text, pins), re-validated when a table moves, bound and
 * optimized per execution with their own parameters, and shared safely by concurrent executions.
 */
class PlanCacheTest extends LakeTestSupport {
  private static final Schema SCHEMA = new Schema(List.of(
      Field.notNullable("id", new ArrowType.Int(64, true)),
      Field.nullable("name", ArrowType.Utf8.INSTANCE)));

  private TableRegistration items;

  @Override
  void createTables() {
    List<List<Object>> rows = new ArrayList<>();
    for (long id = 1; id <= 100; id++) {
      rows.add(row(id, "item-" + id));
    }
    items = createTable("items", SCHEMA, rows);
  }

  private List<List<Object>> run(QueryService queries, String sql, Object... parameters) {
    PreparedQuery prepared = queries.prepare(sql);
    return collect(queries.execute(sql, prepared.pins(), Arrays.asList(parameters), allocator)).rows();
  }

  @Test
  void repeatedStatementIsValidatedOnce() {
    QueryService queries = new QueryService(catalog, engine, options());
    for (long id = 1; id <= 5; id++) {
      assertThat(run(queries, "SELECT name FROM items WHERE id = ?", id)).containsExactly(row("item-" + id));
    }
    // The first prepare validates; every later prepare and every execution reuses it, and each execution binds its
    // value into the statement's parameterized scan.
    assertThat(queries.planCacheStats()).isEqualTo(new PlanCacheStats(9, 1, 0, 1, 5));
    for (int i = 0; i < 3; i++) {
      assertThat(run(queries, "SELECT COUNT(*), SUM(id) FROM items WHERE id <= 10")).containsExactly(row(10L, 55L));
    }
    assertThat(queries.planCacheStats()).isEqualTo(new PlanCacheStats(14, 2, 0, 2, 5));
  }

  @Test
  void statementIsValidatedAgainWhenItsTableMoves() {
    TableRegistration table = createTable("moving", SCHEMA, List.of(row(1L, "a")));
    QueryService queries = new QueryService(catalog, engine, options());
    PreparedQuery before = queries.prepare("SELECT COUNT(*) FROM moving");
    assertThat(run(queries, "SELECT COUNT(*) FROM moving")).containsExactly(row(1L));

    appendRows(table, SCHEMA, List.of(row(2L, "b")));
    PreparedQuery after = queries.prepare("SELECT COUNT(*) FROM moving");
    assertThat(after.pins()).isNotEqualTo(before.pins());
    assertThat(run(queries, "SELECT COUNT(*) FROM moving")).containsExactly(row(2L));
    // The old pins still run (a ticket issued before the append), from their own cache entry.
    long missesBefore = queries.planCacheStats().misses();
    assertThat(collect(queries.execute("SELECT COUNT(*) FROM moving", before.pins(), List.of(), allocator)).rows())
        .containsExactly(row(1L));
    assertThat(queries.planCacheStats().misses()).isEqualTo(missesBefore);
    assertThat(queries.planCacheStats().size()).isEqualTo(2);
  }

  @Test
  void parametersAreBoundPerExecutionOnBothPaths() {
    QueryService queries = new QueryService(catalog, engine, options());
    PreparedQuery point = queries.prepare("SELECT id, name FROM items WHERE id = ?");
    PreparedQuery aggregate = queries.prepare("SELECT COUNT(*) FROM items WHERE id > ? AND name <> ?");
    for (long id = 1; id <= 20; id++) {
      assertThat(collect(queries.execute(point.sql(), point.pins(), List.of(id), allocator)).rows())
          .containsExactly(row(id, "item-" + id));
      assertThat(collect(queries.execute(aggregate.sql(), aggregate.pins(), List.of(id, "item-100"), allocator))
          .rows()).containsExactly(row(99L - id));
    }
    assertThat(queries.planCacheStats().misses()).isEqualTo(2);
  }

  @Test
  void concurrentExecutionsShareCachedStatementsSafely() throws Exception {
    QueryService queries = new QueryService(catalog, engine, options());
    String sql = "SELECT COUNT(*), SUM(id) FROM items WHERE id <= ?";
    Map<String, TablePin> pins = queries.prepare(sql).pins();
    AtomicInteger threads = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(8,
        runnable -> new Thread(runnable, "test-plan-" + threads.incrementAndGet()));
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<Integer>> workers = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int worker = t;
        workers.add(pool.submit(() -> {
          start.await();
          int checked = 0;
          for (int i = 0; i < 25; i++) {
            long limit = (worker * 25 + i) % 100 + 1;
            List<List<Object>> rows = collect(queries.execute(sql, pins, List.of(limit), allocator)).rows();
            assertThat(rows).containsExactly(row(limit, limit * (limit + 1) / 2));
            checked++;
          }
          return checked;
        }));
      }
      start.countDown();
      for (Future<Integer> worker : workers) {
        assertThat(worker.get(60, TimeUnit.SECONDS)).isEqualTo(25);
      }
    } finally {
      pool.shutdownNow();
    }
    PlanCacheStats stats = queries.planCacheStats();
    assertThat(stats.hits()).isEqualTo(200);
    assertThat(stats.size()).isEqualTo(1);
  }

  /**
   * Issue 17: the cache is bounded by the bytes its statements retain, not by their count. 100 distinct statements
   * of 2,000 literals each fill an 8 MB cache only up to its budget (a count-bounded cache kept all of them: tens of
   * megabytes of heap), while 200 small statements all fit it.
   */
  @Test
  void planCacheIsBoundedByBytes() {
    long budget = 8L << 20;
    QueryService queries = new QueryService(catalog, engine, options().withPlanCacheSize(budget));
    long heapBefore = usedHeapAfterGc();
    int large = 100;
    int weight = 0;
    for (int k = 0; k < large; k++) {
      StringBuilder sql = new StringBuilder("SELECT count(*) FROM items WHERE id = ").append(k).append(" OR id IN (");
      for (int v = 0; v < 2_000; v++) {
        sql.append(v == 0 ? "" : ", ").append(1_000_000 + v * 3 + k);
      }
      String text = sql.append(')').toString();
      weight = PlanCache.weight(text);
      queries.prepare(text);
    }
    long retained = usedHeapAfterGc() - heapBefore;
    long entries = queries.planCacheStats().size();
    System.out.printf("planCacheIsBoundedByBytes: %d statements of %d estimated bytes each; %d cached, estimated %d"
        + " bytes, heap retained %d bytes (%d per cached statement)%n", large, weight, entries,
        queries.planCacheBytes(), retained, entries == 0 ? 0 : retained / entries);
    assertThat(queries.planCacheBytes()).as("estimated bytes of the cached statements").isLessThanOrEqualTo(budget);
    assertThat(entries).as("cached large statements").isPositive().isLessThanOrEqualTo(budget / weight);
    // the heap the cache holds stays near its budget (loosely: the estimate is rounded up, GC figures are noisy)
    assertThat(retained).as("heap retained by the cache").isLessThan(3 * budget);
    // small statements weigh little: 200 of them fit the same budget (each its own text: with auto-parameterization
    // they would all share one statement)
    QueryService small = new QueryService(catalog, engine, options().withPlanCacheSize(budget)
        .withAutoParameterize(false));
    for (int k = 0; k < 200; k++) {
      small.prepare("SELECT name FROM items WHERE id = " + k);
    }
    assertThat(small.planCacheStats().size()).as("cached small statements").isEqualTo(200);
    assertThat(small.planCacheBytes()).isLessThanOrEqualTo(budget);
  }

  private static long usedHeapAfterGc() {
    Runtime runtime = Runtime.getRuntime();
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 4; i++) {
      System.gc();
      used = Math.min(used, runtime.totalMemory() - runtime.freeMemory());
    }
    return used;
  }

  @Test
  void aCacheOfSizeZeroValidatesEveryTime() {
    QueryService queries = new QueryService(catalog, engine, options().withPlanCacheSize(0));
    for (int i = 0; i < 3; i++) {
      assertThat(run(queries, "SELECT name FROM items WHERE id = ?", 7L)).containsExactly(row("item-7"));
    }
    assertThat(queries.planCacheStats()).isEqualTo(new PlanCacheStats(0, 6, 0, 0, 3));
  }

  @Test
  void explainIsCachedToo() {
    QueryService queries = new QueryService(catalog, engine, options());
    for (int i = 0; i < 2; i++) {
      List<List<Object>> plan = run(queries, "EXPLAIN PLAN FOR SELECT name FROM items WHERE id = 3");
      assertThat(plan.get(0).get(0).toString()).startsWith("pass-through");
    }
    assertThat(queries.planCacheStats().misses()).isEqualTo(1);
  }
}
