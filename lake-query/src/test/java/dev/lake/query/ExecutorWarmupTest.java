package dev.lake.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.engine.LanceTableEngine;
import dev.lake.query.plan.SubtreeExecutor;
import dev.lake.query.vector.ColumnCache;
import dev.lake.query.vector.VectorRuntime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The start-up executor warm-up (issue 22, cold runs): its statements must reach the code a first query runs — the
 * vectorized executor, single-table and joined, both through a cache fill and from the cache, and Calcite's joins
 * over a decorrelated sub-query (TPC-H Q2's shape) — and answer like Calcite; it must leave nothing behind (no table files, no open handle, no Arrow memory, no column of the node's
 * cache).
 */
class ExecutorWarmupTest {
  private static final int ROWS = 20_000;

  @TempDir
  Path dir;

  private BufferAllocator allocator;
  private LanceTableEngine engine;

  @BeforeEach
  void open() {
    allocator = new RootAllocator();
    engine = new LanceTableEngine(allocator.newChildAllocator("engine", 0, Long.MAX_VALUE), Map.of());
  }

  @AfterEach
  void close() {
    engine.close();
    allocator.close();
  }

  @Test
  void warmupStatementsRunVectorizedAndAnswerAsCalcite() throws Exception {
    ExecutorWarmup.withTables(engine, dir.resolve("warmup"), allocator, ROWS, catalog -> {
      try (QueryService vectorized = new QueryService(catalog, engine, QueryOptions.defaults(),
              new VectorRuntime(2, 65_536, new ColumnCache(64L << 20)));
          QueryService calcite = new QueryService(catalog, engine,
              QueryOptions.defaults().withExecutor(SubtreeExecutor.CALCITE))) {
        List<String> plans = new ArrayList<>();
        for (String sql : ExecutorWarmup.STATEMENTS) {
          String explain = explain(vectorized, sql);
          plans.add(explain);
          assertThat(explain).as(sql).matches("(?s)(vectorized|join-vectorized).*");
          List<List<Object>> expected = rows(calcite, sql);
          assertThat(expected).as("the reference answer of " + sql).isNotEmpty();
          assertThat(rows(vectorized, sql)).as("first run (fills the cache): " + sql).isEqualTo(expected);
          assertThat(rows(vectorized, sql)).as("second run (from the cache): " + sql).isEqualTo(expected);
        }
        assertThat(vectorized.columnCacheStats().hits()).as("the second runs read cached columns").isPositive();
        // TPC-H Q2's shape: Calcite's joins (code generated and compiled by Janino) over a decorrelated sub-query's
        // aggregate, which the vectorized executor computes.
        assertThat(plans).as("a statement whose joins run in Calcite's runtime over a sub-query's aggregate")
            .anySatisfy(plan -> assertThat(plan).contains("EnumerableHashJoin").contains("EnumerableLimitSort")
                .containsPattern("EnumerableHashJoin.*\\n.*\\n *EnumerableVectorJoin\\(probe=\\[warmup_facts\\]"));
      }
      return null;
    });
    assertThat(engine.openHandles()).isZero();
  }

  @Test
  void warmupLeavesNothingBehind() throws Exception {
    ColumnCache nodeCache = new ColumnCache(64L << 20);
    InMemoryCatalog nodeCatalog = new InMemoryCatalog();
    try (QueryService node = new QueryService(nodeCatalog, engine, QueryOptions.defaults(),
        new VectorRuntime(2, 65_536, nodeCache))) {
      Path scratch = dir.resolve("warmup");
      ExecutorWarmup.Result result = ExecutorWarmup.run(engine, scratch, QueryOptions.defaults(), allocator, ROWS);
      assertThat(result.rowsPerStatement()).hasSize(ExecutorWarmup.RUNS * ExecutorWarmup.STATEMENTS.size())
          .allSatisfy(rows -> assertThat(rows).isPositive());
      assertThat(Files.exists(scratch)).as("the scratch directory is deleted").isFalse();
      assertThat(engine.openHandles()).as("open Lance handles").isZero();
      assertThat(allocator.getAllocatedMemory()).as("Arrow memory left allocated").isZero();
      assertThat(nodeCache.stats()).as("the node's column cache").isEqualTo(new ColumnCache.Stats(0, 0, 0, 0));
      assertThat(nodeCatalog.tables()).as("the node's catalog").isEmpty();
    }
  }

  private String explain(QueryService service, String sql) {
    String explain = "EXPLAIN PLAN FOR " + sql;
    LakeTestSupport.Result plan = LakeTestSupport.collect(service.execute(explain, service.prepare(explain).pins(),
        List.of(), allocator));
    return String.join("\n", plan.column(0).stream().map(String::valueOf).toList());
  }

  private List<List<Object>> rows(QueryService service, String sql) {
    LakeTestSupport.Result result = LakeTestSupport.collect(service.execute(sql, service.prepare(sql).pins(),
        List.of(), allocator));
    return new ArrayList<>(result.rows());
  }
}
