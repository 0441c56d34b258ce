package dev.lake.query;

import static dev.lake.query.Rows.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.query.plan.SubtreeExecutor;
import dev.lake.registry.TableRegistration;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * lake's vectorized hash join: randomized two- and three-table aggregates over inner equi-joins (integer, string,
 * date and decimal keys, NULL keys, duplicated build keys, empty build sides, non-equi remainders) answer exactly what
 * Calcite's own joins answer ({@code query.executor=lance-sql}), and an exact reference computed here for the join's
 * matches; EXPLAIN shows the vectorized join for a TPC-H-like shape and for an outer join.
 */
class VectorizedJoinTest extends LakeTestSupport {
  private static final Schema FACT = new Schema(List.of(
      Field.notNullable("id", new ArrowType.Int(64, true)),
      Field.nullable("ik", new ArrowType.Int(32, true)),
      Field.nullable("sk", ArrowType.Utf8.INSTANCE),
      Field.nullable("dk", new ArrowType.Date(DateUnit.DAY)),
      Field.nullable("mk", new ArrowType.Decimal(10, 2, 128)),
      Field.notNullable("amount", new ArrowType.Decimal(15, 2, 128)),
      Field.nullable("qty", new ArrowType.Int(32, true))));
  private static final Schema DIM1 = new Schema(List.of(
      Field.nullable("ik", new ArrowType.Int(32, true)),
      Field.notNullable("name", ArrowType.Utf8.INSTANCE),
      Field.nullable("weight", new ArrowType.Decimal(12, 2, 128))));
  private static final Schema DIM2 = new Schema(List.of(
      Field.nullable("sk", ArrowType.Utf8.INSTANCE),
      Field.nullable("dk", new ArrowType.Date(DateUnit.DAY)),
      Field.notNullable("region", ArrowType.Utf8.INSTANCE),
      Field.nullable("bonus", new ArrowType.Int(64, true))));
  private static final Schema DIM3 = new Schema(List.of(
      Field.nullable("mk", new ArrowType.Decimal(10, 2, 128)),
      Field.notNullable("tag", ArrowType.Utf8.INSTANCE)));
  /** Short (inlined) and long strings, and one only the fact table holds. */
  private static final String[] STRINGS = {"a", "bb", "a longer key value", "ü-umlaut", "", "fact-only"};
  private static final LocalDate DAY0 = LocalDate.of(1995, 3, 1);
  private static final int FRAGMENTS = 3;
  private static final int ROWS_PER_FRAGMENT = 4_000;
  private static final int QUERIES = 40;

  private final List<List<Object>> fact = new ArrayList<>();
  private final List<List<Object>> dim1 = new ArrayList<>();
  private final List<List<Object>> dim2 = new ArrayList<>();
  private QueryService calciteJoins;

  @Override
  QueryOptions options() {
    return QueryOptions.defaults().withExecutor(SubtreeExecutor.AUTO).withBatchSize(1_000);
  }

  @Override
  void createTables() {
    Random random = new Random(5);
    TableRegistration registration = null;
    for (int f = 0; f < FRAGMENTS; f++) {
      List<List<Object>> rows = new ArrayList<>();
      for (int i = 0; i < ROWS_PER_FRAGMENT; i++) {
        List<Object> row = row((long) f * ROWS_PER_FRAGMENT + i, nullOr(random, random.nextInt(50)),
            nullOr(random, STRINGS[random.nextInt(STRINGS.length)]), nullOr(random, DAY0.plusDays(random.nextInt(6))),
            nullOr(random, BigDecimal.valueOf(random.nextInt(30), 2)), BigDecimal.valueOf(random.nextInt(100_000), 2),
            nullOr(random, random.nextInt(100)));
        fact.add(row);
        rows.add(row);
      }
      registration = registration == null ? createTable("fact", FACT, rows) : appendRows(registration, FACT, rows);
    }
    // Keys 0..39, each 0 to 3 times (duplicates), and some NULL keys; keys 40..49 of the fact table match nothing.
    for (int key = 0; key < 40; key++) {
      for (int copy = random.nextInt(4); copy > 0; copy--) {
        dim1.add(row(key, "n" + (key % 7), BigDecimal.valueOf(random.nextInt(10_000), 2)));
      }
    }
    dim1.add(row(null, "nullkey", BigDecimal.ONE));
    dim1.add(row(null, "n1", null));
    createTable("dim1", DIM1, dim1);
    for (String s : new String[] {"a", "bb", "a longer key value", "ü-umlaut", "", null}) {
      for (int day = 0; day < 5; day++) {
        dim2.add(row(s, DAY0.plusDays(day), "r" + (day % 3), (long) random.nextInt(5)));
        if (day == 2) {
          dim2.add(row(s, DAY0.plusDays(day), "dup", 7L));
        }
      }
    }
    dim2.add(row("a", null, "nullday", 1L));
    createTable("dim2", DIM2, dim2);
    List<List<Object>> dim3 = new ArrayList<>();
    for (int cents = 0; cents < 30; cents += 2) {
      dim3.add(row(BigDecimal.valueOf(cents, 2), "t" + (cents % 4)));
    }
    dim3.add(row(null, "none"));
    dim3.add(row(new BigDecimal("0.04"), "second"));
    createTable("dim3", DIM3, dim3);
    calciteJoins = new QueryService(catalog, engine, QueryOptions.defaults().withExecutor(SubtreeExecutor.LANCE_SQL));
  }

  @AfterAll
  void closeServices() {
    calciteJoins.close();
  }

  private static <T> T nullOr(Random random, T value) {
    return random.nextInt(10) == 0 ? null : value;
  }

  @Test
  void randomJoinAggregatesMatchCalcitesJoins() {
    Random random = new Random(77);
    for (int q = 0; q < QUERIES; q++) {
      String sql = randomQuery(random);
      assertThat(explain(service, sql)).as(sql).startsWith("join-vectorized").contains("EnumerableVectorJoin");
      assertThat(explain(calciteJoins, sql)).as(sql).doesNotContain("VectorJoin");
      List<List<Object>> vectorized = sorted(query(sql).rows());
      List<List<Object>> calcite = sorted(collect(calciteJoins.execute(sql, calciteJoins.prepare(sql).pins(),
          List.of(), allocator)).rows());
      assertThat(vectorized).as(sql).isEqualTo(calcite);
    }
  }

  @Test
  void buildSideScansReadTheColumnCacheWithTheirFilter() {
    Schema build = new Schema(List.of(Field.nullable("k", new ArrowType.Int(64, true)),
        Field.nullable("label", ArrowType.Utf8.INSTANCE), Field.nullable("w", new ArrowType.Decimal(10, 2, 128))));
    Schema probe = new Schema(List.of(Field.nullable("k", new ArrowType.Int(64, true)),
        Field.notNullable("v", new ArrowType.Int(64, true))));
    List<List<Object>> builds = new ArrayList<>();
    for (long k = 0; k < 30; k++) {
      builds.add(row(k, "l" + (k % 4), BigDecimal.valueOf(k * 37 % 1_000, 2)));
    }
    builds.add(row(null, "nullkey", BigDecimal.TEN));
    List<List<Object>> probes = new ArrayList<>();
    for (long i = 0; i < 2_000; i++) {
      probes.add(row(i % 41 == 0 ? null : i % 35, i));
    }
    createTable("build_t", build, builds);
    createTable("probe_t", probe, probes);
    String sql = "SELECT b.label, SUM(p.v) AS total, COUNT(*) AS n FROM probe_t p JOIN build_t b ON p.k = b.k"
        + " WHERE b.w > 5.00 GROUP BY b.label";
    assertThat(explain(service, sql)).startsWith("join-vectorized").contains("probe=[probe_t]");
    java.util.Map<String, long[]> expected = new java.util.TreeMap<>();
    for (List<Object> p : probes) {
      for (List<Object> b : builds) {
        if (p.get(0) != null && p.get(0).equals(b.get(0)) && ((BigDecimal) b.get(2)).compareTo(BigDecimal.valueOf(5))
            > 0) {
          long[] sums = expected.computeIfAbsent((String) b.get(1), x -> new long[2]);
          sums[0] += (Long) p.get(1);
          sums[1]++;
        }
      }
    }
    dev.lake.query.vector.ColumnCache.Stats before = service.columnCacheStats();
    List<List<Object>> first = sorted(query(sql).rows());
    dev.lake.query.vector.ColumnCache.Stats loaded = service.columnCacheStats();
    List<List<Object>> second = sorted(query(sql).rows());
    dev.lake.query.vector.ColumnCache.Stats hit = service.columnCacheStats();
    List<List<Object>> answer = new ArrayList<>();
    expected.forEach((label, sums) -> answer.add(List.of(label, sums[0], sums[1])));
    assertThat(first).isEqualTo(answer);
    assertThat(second).isEqualTo(answer);
    assertThat(loaded.misses() - before.misses()).as("probe_t's k, v and build_t's k, label, w loaded once")
        .isEqualTo(5);
    assertThat(hit.hits() - loaded.hits()).as("then probe_t's two read from the cache").isEqualTo(2);
    assertThat(hit.sharedTables() - loaded.sharedTables()).as("and build_t's join table shared").isEqualTo(1);
    assertThat(hit.misses()).isEqualTo(loaded.misses());
  }

  @Test
  void duplicateBuildKeysYieldOneRowPerMatchAndNullKeysNeverMatch() {
    String sql = "SELECT COUNT(*) AS n, SUM(f.amount) AS total, COUNT(d.weight) AS weighed FROM fact f"
        + " JOIN dim1 d ON f.ik = d.ik";
    assertThat(explain(service, sql)).startsWith("join-vectorized");
    long matches = 0;
    long weighed = 0;
    BigDecimal total = BigDecimal.ZERO;
    for (List<Object> f : fact) {
      for (List<Object> d : dim1) {
        if (f.get(1) != null && f.get(1).equals(d.get(0))) {
          matches++;
          total = total.add((BigDecimal) f.get(5));
          weighed += d.get(2) == null ? 0 : 1;
        }
      }
    }
    assertThat(query(sql).rows()).containsExactly(List.of(matches, total, weighed));
  }

  @Test
  void emptyBuildSideGivesNoGroupsOrOneEmptyGlobalGroup() {
    String grouped = "SELECT d.name, COUNT(*) AS n FROM fact f JOIN dim1 d ON f.ik = d.ik"
        + " WHERE d.weight < -1 GROUP BY d.name";
    assertThat(explain(service, grouped)).startsWith("join-vectorized");
    assertThat(query(grouped).rows()).isEmpty();
    String global = "SELECT COUNT(*) AS n, SUM(f.amount) AS total FROM fact f JOIN dim1 d ON f.ik = d.ik"
        + " WHERE d.weight < -1";
    assertThat(query(global).rows()).containsExactly(java.util.Arrays.asList(0L, null));
  }

  @Test
  void explainShowsVectorizedJoinForTpchShapeAndForOuterJoin() {
    String tpch = "SELECT f.ik, d2.region, SUM(f.amount * (1 - f.mk)) AS revenue FROM dim1 d"
        + " JOIN fact f ON d.ik = f.ik JOIN dim2 d2 ON f.sk = d2.sk AND f.dk = d2.dk"
        + " WHERE d.name = 'n3' AND f.qty < 50 GROUP BY f.ik, d2.region ORDER BY revenue DESC LIMIT 10";
    String plan = explain(service, tpch);
    assertThat(plan).startsWith("join-vectorized").contains("EnumerableVectorJoin(probe=[fact]")
        .contains("engine=[vectorized]").contains("why=[aggregate over 2 inner equi-join(s)");
    String outer = "SELECT d.name, COUNT(*) AS n FROM fact f LEFT JOIN dim1 d ON f.ik = d.ik GROUP BY d.name";
    // Outer joins run vectorized too (VectorizedSemiJoinTest has their shapes): the probe side is the preserved one.
    assertThat(explain(service, outer)).startsWith("join-vectorized").contains("joins=[[probe-outer]]");
    assertThat(sorted(query(outer).rows())).isEqualTo(sorted(collect(calciteJoins.execute(outer,
        calciteJoins.prepare(outer).pins(), List.of(), allocator)).rows()));
    assertThat(sorted(query(tpch).rows())).isEqualTo(sorted(collect(calciteJoins.execute(tpch,
        calciteJoins.prepare(tpch).pins(), List.of(), allocator)).rows()));
  }

  @Test
  void buildSidesThatAreJoinsGoIntoTheTableUngroupedWithEveryDuplicate() {
    // dim2 JOIN dim1 is the build side of fact's probe: a join tree, vectorized itself. Projected to the columns the
    // query needs, many of its rows are equal (dim1's keys repeat, dim2 has a 'dup' row per string): each must reach
    // the table as often as the join yields it.
    String sql = "SELECT d2.region, d.name, COUNT(*) AS n, SUM(f.amount) AS total, COUNT(d.weight) AS weighed"
        + " FROM fact f JOIN dim2 d2 ON f.sk = d2.sk JOIN dim1 d ON d.ik = d2.bonus GROUP BY d2.region, d.name";
    String plan = explain(service, sql);
    assertThat(plan).startsWith("join-vectorized").contains("EnumerableVectorJoin(probe=[fact]")
        .as("the build side's join hands its rows on ungrouped: %s", plan)
        .contains("why=[rows of 1 inner equi-join(s)").doesNotContain("lake_copies");
    java.util.Map<List<Object>, Object[]> expected = new java.util.HashMap<>();
    for (List<Object> f : fact) {
      for (List<Object> d2 : dim2) {
        if (f.get(2) == null || !f.get(2).equals(d2.get(0))) {
          continue;
        }
        for (List<Object> d : dim1) {
          if (d.get(0) != null && d2.get(3) != null && ((Integer) d.get(0)).longValue() == (Long) d2.get(3)) {
            Object[] sums = expected.computeIfAbsent(List.of(d2.get(2), d.get(1)),
                k -> new Object[] {0L, BigDecimal.ZERO, 0L});
            sums[0] = (Long) sums[0] + 1;
            sums[1] = ((BigDecimal) sums[1]).add((BigDecimal) f.get(5));
            sums[2] = (Long) sums[2] + (d.get(2) == null ? 0 : 1);
          }
        }
      }
    }
    List<List<Object>> answer = new ArrayList<>();
    expected.forEach((key, sums) -> answer.add(List.of(key.get(0), key.get(1), sums[0], sums[1], sums[2])));
    assertThat(answer).as("the data makes the build side repeat rows").hasSizeGreaterThan(10);
    assertThat(sorted(query(sql).rows())).isEqualTo(sorted(answer));
    assertThat(sorted(query(sql).rows())).isEqualTo(sorted(collect(calciteJoins.execute(sql,
        calciteJoins.prepare(sql).pins(), List.of(), allocator)).rows()));
  }

  @Test
  void aBuildSideJoinTreeReadFromLanceKeepsEachBatchsRows() throws Exception {
    // Without the column cache the build side's probe pipeline streams Lance batches (1,000 rows each, four per
    // fragment): each batch's rows must be kept before the scan loads the next one over the same vectors (at TPC-H SF
    // 10, where lineitem does not fit the cache, Q7 failed reading a released batch).
    String sql = "SELECT d.name, COUNT(*) AS n, SUM(f.amount) AS total, COUNT(g.sk) AS keyed FROM fact f"
        + " JOIN fact g ON f.id = g.id JOIN dim1 d ON g.ik = d.ik WHERE d.name IN ('n1', 'n2') GROUP BY d.name";
    try (QueryService uncached = new QueryService(catalog, engine, options(),
        new dev.lake.query.vector.VectorRuntime(2, 65_536, new dev.lake.query.vector.ColumnCache(0)))) {
      String plan = explain(uncached, sql);
      assertThat(plan).startsWith("join-vectorized").as("the build side is a join tree: %s", plan)
          .contains("why=[rows of 1 inner equi-join(s)");
      List<List<Object>> rows = collect(uncached.execute(sql, uncached.prepare(sql).pins(), List.of(), allocator))
          .rows();
      assertThat(rows).hasSize(2);
      assertThat(sorted(rows)).isEqualTo(sorted(collect(calciteJoins.execute(sql, calciteJoins.prepare(sql).pins(),
          List.of(), allocator)).rows()));
    }
  }

  @Test
  void differentAggregatesOverTheSameJoinStayApart() {
    String sql = "SELECT d.name, SUM(f.amount) AS v FROM fact f JOIN dim1 d ON f.ik = d.ik GROUP BY d.name"
        + " UNION ALL SELECT d.name, MAX(f.amount) AS v FROM fact f JOIN dim1 d ON f.ik = d.ik GROUP BY d.name";
    assertThat(explain(service, sql)).contains("EnumerableVectorJoin");
    assertThat(sorted(query(sql).rows())).isEqualTo(sorted(collect(calciteJoins.execute(sql,
        calciteJoins.prepare(sql).pins(), List.of(), allocator)).rows()));
  }

  @Test
  void aggregateBuildSideIsReducedToTheGroupsTheProbeSideCanMatch() {
    String sql = "SELECT d.name, COUNT(*) AS n, SUM(g.total) AS total, MAX(g.items) AS items FROM dim1 d"
        + " JOIN (SELECT id, ik, SUM(amount) AS total, COUNT(qty) AS items FROM fact GROUP BY id, ik) g"
        + " ON d.ik = g.id WHERE d.weight > 10 GROUP BY d.name";
    String plan = explain(service, sql);
    assertThat(plan).startsWith("join-vectorized").contains("EnumerableVectorJoin(probe=[dim1]")
        .as("the grouped fact rows are only those whose id a dim1 key matches")
        .contains("EnumerableVectorJoin(probe=[fact]");
    assertThat(sorted(query(sql).rows())).isEqualTo(sorted(collect(calciteJoins.execute(sql,
        calciteJoins.prepare(sql).pins(), List.of(), allocator)).rows()));
  }

  @Test
  void buildSidesAreChargedToTheQueryMemoryLimit() {
    String join = "SELECT COUNT(*) AS n FROM fact f JOIN fact g ON f.id = g.id";
    assertThat(explain(service, join)).startsWith("join-vectorized");
    assertThat(query(join).rows()).containsExactly(List.of((long) FRAGMENTS * ROWS_PER_FRAGMENT));
    // spilling off (query.spill-limit 0): past the limit the join fails (SpillingOperatorsTest: with it, it spills)
    try (QueryService limited = new QueryService(catalog, engine,
        new QueryOptions(1_000, 300_000, java.time.Clock.systemUTC()).withSpill(
            new dev.lake.query.spill.SpillOptions(dataRoot.resolve("no-spill"), 0, 0)))) {
      String scan = "SELECT COUNT(*) AS n FROM fact WHERE id >= 0";
      assertThat(collect(limited.execute(scan, limited.prepare(scan).pins(), List.of(), allocator)).rows())
          .as("the scan alone fits the limit").containsExactly(List.of((long) FRAGMENTS * ROWS_PER_FRAGMENT));
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> collect(limited.execute(join,
          limited.prepare(join).pins(), List.of(), allocator)))
          .isInstanceOf(org.apache.arrow.memory.OutOfMemoryException.class)
          .hasMessageContaining("query.memory-limit");
    }
  }

  private static String randomQuery(Random random) {
    String factFilter = random.nextBoolean() ? "" : " AND f.qty < " + random.nextInt(100);
    String[] amounts = {"SUM(f.amount)", "MIN(f.qty)", "MAX(f.amount)", "COUNT(f.qty)", "COUNT(*)",
        "SUM(f.amount * 2 - f.qty)"};
    String aggregate = amounts[random.nextInt(amounts.length)] + " AS a1, COUNT(*) AS n";
    switch (random.nextInt(8)) {
      case 6:
        return "SELECT EXTRACT(YEAR FROM f.dk) AS y, EXTRACT(MONTH FROM f.dk) AS m, " + aggregate
            + ", SUM(CASE WHEN d.name LIKE 'n%' AND d.name NOT IN ('n1', 'n2') THEN f.amount ELSE 0 END) AS likes"
            + " FROM fact f JOIN dim1 d ON f.ik = d.ik WHERE d.name LIKE '%" + random.nextInt(7) + "'" + factFilter
            + " GROUP BY EXTRACT(YEAR FROM f.dk), EXTRACT(MONTH FROM f.dk)";
      case 7:
        // The dimensions join each other first: a build side that is itself a join.
        return "SELECT d2.region, " + aggregate + " FROM fact f JOIN dim2 d2 ON f.sk = d2.sk"
            + " JOIN dim1 d ON d.ik = d2.bonus WHERE d.name <> 'n" + random.nextInt(7) + "'" + factFilter
            + " GROUP BY d2.region";
      case 0:
        return "SELECT d.name, " + aggregate + ", SUM(d.weight) AS w FROM fact f JOIN dim1 d ON f.ik = d.ik"
            + " WHERE 1 = 1" + factFilter + " GROUP BY d.name";
      case 1:
        return "SELECT d2.region, f.ik, " + aggregate + ", SUM(d2.bonus * f.qty) AS b FROM fact f"
            + " JOIN dim2 d2 ON f.sk = d2.sk AND f.dk = d2.dk WHERE 1 = 1" + factFilter + " GROUP BY d2.region, f.ik";
      case 2:
        return "SELECT t.tag, " + aggregate + " FROM dim3 t JOIN fact f ON t.mk = f.mk WHERE 1 = 1" + factFilter
            + " GROUP BY t.tag";
      case 3:
        return "SELECT d.name, d2.region, " + aggregate + " FROM fact f JOIN dim1 d ON f.ik = d.ik"
            + " JOIN dim2 d2 ON d2.sk = f.sk WHERE d2.bonus > " + random.nextInt(4) + factFilter
            + " GROUP BY d.name, d2.region";
      case 4:
        return "SELECT f.dk, " + aggregate + " FROM fact f JOIN dim1 d ON f.ik = d.ik AND f.qty > d.weight"
            + " JOIN dim3 t ON f.mk = t.mk WHERE t.tag <> 't1'" + factFilter + " GROUP BY f.dk";
      default:
        return "SELECT " + aggregate + " FROM fact f JOIN dim1 d ON f.ik = d.ik WHERE d.weight < "
            + (random.nextBoolean() ? "-1" : String.valueOf(random.nextInt(100))) + factFilter;
    }
  }
}
