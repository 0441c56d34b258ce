package dev.lake.query;

import dev.lake.query.plan.SubtreeExecutor;
import dev.lake.registry.TableRegistration;
import io.trino.tpch.TpchTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Evidence, not a timed assertion: TPC-H Q1 and Q6 through {@link QueryService} (no Flight) with the vectorized
 * executor and with Lance's SQL engine, interleaved, over lineitem at {@code -Dlake.bench.sf} (default 0.1) in
 * {@code -Dlake.bench.fragments} fragments (default 4) — or over an existing lineitem dataset at version 1 given by
 * {@code -Dlake.bench.location} (e.g. one {@code bin/lake bench tpch} wrote) — and a raw sequential scan of Q1's
 * columns ({@code -Dlake.bench.batch} rows per batch). Runs only with {@code -Dlake.bench=true}; prints medians:
 * {@code ./mvnw -B -q -o -pl lake-query -am verify -Dtest=VectorizedTpchBenchmark -Dlake.bench=true
 * -Dsurefire.failIfNoSpecifiedTests=false} ({@code -Dlake.bench.queries=6} for Q6 only,
 * {@code -Dlake.bench.skip-lance-sql=true} to time lake alone, e.g. under a profiler).
 */
@EnabledIfSystemProperty(named = "lake.bench", matches = "true")
class VectorizedTpchBenchmark extends LakeTestSupport {
  private static final int RUNS = Integer.getInteger("lake.bench.runs", 15);

  @Override
  void createTables() {
    String existing = System.getProperty("lake.bench.location");
    if (existing != null) {
      // A lineitem dataset written earlier (e.g. by bin/lake bench tpch), registered at version 1.
      try (var snapshot = engine.open(existing, 1, allocator)) {
        java.time.Instant now = java.time.Instant.now();
        catalog.put(new TableRegistration("lineitem", java.util.UUID.randomUUID().toString(), existing, 1,
            snapshot.schema().toJson(), 1, now, now));
      }
      return;
    }
    double scale = Double.parseDouble(System.getProperty("lake.bench.sf", "0.1"));
    List<List<Object>> rows = TpchTestData.rows(TpchTable.LINE_ITEM, scale);
    int fragments = Integer.getInteger("lake.bench.fragments", 4);
    int per = (rows.size() + fragments - 1) / fragments;
    TableRegistration registration = null;
    for (int f = 0; f < fragments; f++) {
      List<List<Object>> part = new ArrayList<>(rows.subList(f * per, Math.min(rows.size(), (f + 1) * per)));
      registration = registration == null ? createTable("lineitem", TpchTestData.schema(TpchTable.LINE_ITEM), part)
          : appendRows(registration, TpchTestData.schema(TpchTable.LINE_ITEM), part);
    }
  }

  @Test
  void rawScanOfQ1Columns() throws Exception {
    TableRegistration lineitem = catalog.table("lineitem").orElseThrow();
    List<String> columns = List.of("l_returnflag", "l_linestatus", "l_quantity", "l_extendedprice", "l_discount",
        "l_tax", "l_shipdate");
    double[] times = new double[RUNS];
    for (int run = -3; run < RUNS; run++) {
      long start = System.nanoTime();
      long rows = 0;
      try (var snapshot = engine.open(lineitem.location(), lineitem.version(), allocator)) {
        for (int fragment : snapshot.fragmentIds()) {
          try (var reader = snapshot.scanFragments(columns, java.util.Optional.empty(), List.of(fragment), 0,
              java.util.Optional.empty(), Integer.getInteger("lake.bench.batch", 65_536))) {
            while (reader.loadNextBatch()) {
              rows += reader.getVectorSchemaRoot().getRowCount();
            }
          }
        }
      }
      if (run >= 0) {
        times[run] = (System.nanoTime() - start) / 1e6;
      }
    }
    Arrays.sort(times);
    System.out.printf("raw sequential scan of Q1's columns %.1f ms (median of %d)%n", times[RUNS / 2], RUNS);
  }

  @Test
  void openingThePinnedVersion() {
    TableRegistration lineitem = catalog.table("lineitem").orElseThrow();
    double[] times = new double[RUNS];
    for (int run = -3; run < RUNS; run++) {
      long start = System.nanoTime();
      try (var snapshot = engine.open(lineitem.location(), lineitem.version(), allocator)) {
        snapshot.fragmentIds();
      }
      if (run >= 0) {
        times[run] = (System.nanoTime() - start) / 1e6;
      }
    }
    Arrays.sort(times);
    System.out.printf("opening lineitem's pinned version %.2f ms (median of %d)%n", times[RUNS / 2], RUNS);
  }

  @Test
  void q1AndQ6() {
    QueryService lance = new QueryService(catalog, engine, QueryOptions.defaults()
        .withExecutor(SubtreeExecutor.LANCE_SQL));
    try {
      int[] queries = Arrays.stream(System.getProperty("lake.bench.queries", "1,6").split(","))
          .mapToInt(q -> Integer.parseInt(q.trim())).toArray();
      boolean withLance = !Boolean.getBoolean("lake.bench.skip-lance-sql");
      for (int query : queries) {
        String sql = TpchTestData.query(query);
        double[] vectorized = new double[RUNS];
        double[] lanceSql = new double[RUNS];
        for (int run = -3; run < RUNS; run++) {
          long start = System.nanoTime();
          collect(service.execute(sql, service.prepare(sql).pins(), List.of(), allocator));
          long middle = System.nanoTime();
          if (withLance) {
            collect(lance.execute(sql, lance.prepare(sql).pins(), List.of(), allocator));
          }
          long end = System.nanoTime();
          if (run >= 0) {
            vectorized[run] = (middle - start) / 1e6;
            lanceSql[run] = (end - middle) / 1e6;
          }
        }
        double[] prepare = new double[RUNS];
        for (int run = 0; run < RUNS; run++) {
          long start = System.nanoTime();
          service.prepare(sql);
          prepare[run] = (System.nanoTime() - start) / 1e6;
        }
        Arrays.sort(prepare);
        System.out.printf("Q%d prepare (plan cache hit) %.2f ms (median of %d)%n", query, prepare[RUNS / 2], RUNS);
        Arrays.sort(vectorized);
        Arrays.sort(lanceSql);
        System.out.printf("Q%d vectorized %.1f ms, Lance SQL %.1f ms (medians of %d)%n", query,
            vectorized[RUNS / 2], lanceSql[RUNS / 2], RUNS);
      }
    } finally {
      lance.close();
    }
  }

  /**
   * Where a cold run's time goes: each query's prepare (parse, validate, optimize, distinct-value estimates) and
   * execute (dataset opens, scans, the column cache filling) on a fresh query service, then the same on the warm
   * one, and after a fresh service over the warm engine again.
   */
  @Test
  void coldFirstRuns() {
    int[] queries = Arrays.stream(System.getProperty("lake.bench.queries", "1,6").split(","))
        .mapToInt(q -> Integer.parseInt(q.trim())).toArray();
    for (String phase : List.of("cold service", "warm service", "fresh service again")) {
      if (!phase.startsWith("warm")) {
        service.close();
        service = new QueryService(catalog, engine, options(),
            dev.lake.query.vector.VectorRuntime.forCores(new dev.lake.query.vector.ColumnCache(1L << 30)));
      }
      for (int query : queries) {
        String sql = TpchTestData.query(query);
        long start = System.nanoTime();
        PreparedQuery prepared = service.prepare(sql);
        long planned = System.nanoTime();
        collect(service.execute(sql, prepared.pins(), List.of(), allocator));
        long done = System.nanoTime();
        System.out.printf("%s Q%d prepare %.1f ms, execute %.1f ms%n", phase, query, (planned - start) / 1e6,
            (done - planned) / 1e6);
      }
    }
  }
}
