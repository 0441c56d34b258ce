package dev.lake.query;

import static dev.lake.query.Rows.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.query.plan.SubtreeExecutor;
import dev.lake.engine.StagedData;
import dev.lake.engine.TableChange;
import dev.lake.query.vector.ColumnCache;
import dev.lake.query.vector.VectorRuntime;
import dev.lake.registry.TableRegistration;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * lake's vectorized executor against exact references: randomized single-table aggregates (filters, group keys,
 * decimal/int/double/date columns, NULLs) over a table of several fragments equal a BigDecimal reference computed
 * here from the same rows, and Lance's own SQL answers the same within its documented truncation; decimal sums that
 * overflow a long continue exactly.
 */
class VectorizedExecutorTest extends LakeTestSupport {
  private static final Schema ITEMS = new Schema(List.of(
      Field.notNullable("id", new ArrowType.Int(64, true)),
      Field.nullable("k", new ArrowType.Int(32, true)),
      Field.nullable("s", ArrowType.Utf8.INSTANCE),
      Field.nullable("price", new ArrowType.Decimal(15, 2, 128)),
      Field.nullable("qty", new ArrowType.Int(32, true)),
      Field.nullable("ratio", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
      Field.nullable("d", new ArrowType.Date(DateUnit.DAY))));
  private static final Schema HUGE = new Schema(List.of(
      Field.notNullable("g", ArrowType.Utf8.INSTANCE),
      Field.notNullable("v", new ArrowType.Decimal(18, 0, 128)),
      Field.notNullable("c", new ArrowType.Decimal(18, 2, 128))));
  private static final String[] STRINGS = {"a", "b", "c", "ü", "", null};
  private static final LocalDate DAY0 = LocalDate.of(1994, 1, 1);
  private static final int FRAGMENTS = 3;
  private static final int ROWS_PER_FRAGMENT = 4_000;
  private static final int QUERIES = 60;

  private final List<Item> items = new ArrayList<>();
  private QueryService lanceSql;
  /** The vectorized executor reading through a column cache (the {@code service} reads Lance every time). */
  private QueryService cached;
  private ColumnCache cache;

  /** One row of {@code items} as the reference sees it. */
  record Item(long id, Integer k, String s, BigDecimal price, Integer qty, Double ratio, LocalDate d) {
    List<Object> values() {
      return row(id, k, s, price, qty, ratio, d);
    }
  }

  @Override
  QueryOptions options() {
    // keyed's 80,000 groups of v are over this limit, its 2 of g under it
    return QueryOptions.defaults().withExecutor(SubtreeExecutor.AUTO).withBatchSize(1_000)
        .withVectorizedMaxGroups(50_000);
  }

  @Override
  void createTables() {
    Random random = new Random(9);
    TableRegistration registration = null;
    for (int f = 0; f < FRAGMENTS; f++) {
      List<List<Object>> rows = new ArrayList<>();
      for (int i = 0; i < ROWS_PER_FRAGMENT; i++) {
        long id = (long) f * ROWS_PER_FRAGMENT + i;
        Item item = new Item(id, nullOr(random, random.nextInt(5)), STRINGS[random.nextInt(STRINGS.length)],
            nullOr(random, BigDecimal.valueOf(random.nextInt(200_000) - 20_000, 2)), nullOr(random,
            random.nextInt(60)), nullOr(random, random.nextDouble() * 100 - 10),
            nullOr(random, DAY0.plusDays(random.nextInt(2_000))));
        items.add(item);
        rows.add(item.values());
      }
      registration = registration == null ? createTable("items", ITEMS, rows)
          : appendRows(registration, ITEMS, rows);
    }
    List<List<Object>> huge = new ArrayList<>();
    BigDecimal big = new BigDecimal("999999999999999999");
    for (int i = 0; i < 40; i++) {
      huge.add(row(i % 2 == 0 ? "over" : "small", i % 2 == 0 ? big : BigDecimal.valueOf(i),
          new BigDecimal("9999999999999999.99")));
    }
    createTable("huge", HUGE, huge);
    List<List<Object>> keys = new ArrayList<>();
    for (int i = 0; i < 80_000; i++) {
      keys.add(row(i % 2 == 0 ? "even" : "odd", (long) i, BigDecimal.valueOf(i, 2)));
    }
    createTable("keyed", new Schema(List.of(Field.notNullable("g", ArrowType.Utf8.INSTANCE),
        Field.notNullable("v", new ArrowType.Int(64, true)),
        Field.notNullable("c", new ArrowType.Decimal(18, 2, 128)))), keys);
    lanceSql = new QueryService(catalog, engine, QueryOptions.defaults().withExecutor(SubtreeExecutor.LANCE_SQL));
    // Splits of 1,500 rows: the 4,000-row fragments are also scanned as row ranges in parallel.
    service.close();
    service = new QueryService(catalog, engine, options(), new VectorRuntime(2, 1_500));
    cache = new ColumnCache(64L << 20);
    cached = new QueryService(catalog, engine, options(), new VectorRuntime(2, 1_500, cache));
  }

  @AfterAll
  void closeServices() {
    lanceSql.close();
    cached.close();
    service.close();
  }

  private static <T> T nullOr(Random random, T value) {
    return random.nextInt(10) == 0 ? null : value;
  }

  @Test
  void vectorizedAggregateMatchesReference() {
    Random random = new Random(42);
    for (int q = 0; q < QUERIES; q++) {
      RandomQuery query = RandomQuery.next(random);
      String sql = query.sql();
      assertThat(explain(sql)).as(sql).startsWith("vectorized").contains("engine=[vectorized]");
      long before = service.pushdownStats().vectorized();
      List<List<Object>> answered = query(sql).rows();
      assertThat(service.pushdownStats().vectorized()).as("vectorized runs of %s", sql).isEqualTo(before + 1);
      Map<List<Object>, List<Object>> expected = query.reference(items);
      assertSameGroups(sql, "vectorized", answered, expected, query, 0);
      List<List<Object>> fromCache = collect(cached.execute(sql, cached.prepare(sql).pins(), List.of(), allocator))
          .rows();
      assertSameGroups(sql, "vectorized over cached columns", fromCache, expected, query, 0);
      List<List<Object>> lance = collect(lanceSql.execute(sql, lanceSql.prepare(sql).pins(), List.of(), allocator))
          .rows();
      assertSameGroups(sql, "Lance SQL", lance, expected, query, 1e-6);
    }
  }

  @Test
  void decimalSumDetectsOverflowAndFallsBack() {
    String sql = "SELECT g, SUM(v) AS total, SUM(v * v) AS squares, SUM(c) AS cents, AVG(v) AS mean, MAX(v) AS top"
        + " FROM huge GROUP BY g";
    assertThat(explain(sql)).startsWith("vectorized");
    Map<String, List<BigDecimal>> expected = new HashMap<>();
    for (int i = 0; i < 40; i++) {
      String g = i % 2 == 0 ? "over" : "small";
      BigDecimal v = i % 2 == 0 ? new BigDecimal("999999999999999999") : BigDecimal.valueOf(i);
      BigDecimal c = new BigDecimal("9999999999999999.99");
      List<BigDecimal> sums = expected.computeIfAbsent(g, x -> new ArrayList<>(List.of(BigDecimal.ZERO,
          BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO)));
      sums.set(0, sums.get(0).add(v));
      sums.set(1, sums.get(1).add(v.multiply(v)));
      sums.set(2, sums.get(2).add(c));
      sums.set(3, sums.get(3).max(v));
    }
    assertThat(expected.get("over").get(0)).as("the sum needs more than a long")
        .isGreaterThan(BigDecimal.valueOf(Long.MAX_VALUE));
    for (QueryService engine : List.of(service, cached, cached, lanceSql)) {
      List<List<Object>> rows = collect(engine.execute(sql, engine.prepare(sql).pins(), List.of(), allocator)).rows();
      assertThat(rows).hasSize(2);
      for (List<Object> answered : rows) {
        List<BigDecimal> sums = expected.get((String) answered.get(0));
        assertThat(decimal(answered.get(1))).as("SUM(v) of %s", answered.get(0)).isEqualByComparingTo(sums.get(0));
        assertThat(decimal(answered.get(2))).as("SUM(v * v) of %s", answered.get(0))
            .isEqualByComparingTo(sums.get(1));
        assertThat(decimal(answered.get(3))).as("SUM(c) of %s", answered.get(0)).isEqualByComparingTo(sums.get(2));
        assertThat(decimal(answered.get(4)).subtract(sums.get(0).divide(BigDecimal.valueOf(20), 6,
            RoundingMode.DOWN)).abs()).as("AVG(v) of %s", answered.get(0))
            .isLessThanOrEqualTo(new BigDecimal("0.000001"));
        assertThat(decimal(answered.get(5))).isEqualByComparingTo(sums.get(3));
      }
    }
  }

  @Test
  void columnCacheServesRepeatedScansAndReadsNewVersionsAfresh() {
    Schema schema = new Schema(List.of(Field.nullable("name", ArrowType.Utf8.INSTANCE),
        Field.notNullable("n", new ArrowType.Int(64, true))));
    List<List<Object>> rows = new ArrayList<>();
    for (int i = 0; i < 3_000; i++) {
      // distinct names longer than a long holds: the cached column keeps raw bytes, not a dictionary
      rows.add(row(i % 7 == 0 ? null : "customer-" + (i % 1_000), (long) i));
    }
    TableRegistration first = createTable("names", schema, rows);
    String sql = "SELECT name, COUNT(*) AS c, SUM(n) AS total FROM names GROUP BY name";
    assertThat(explain(sql)).startsWith("vectorized");
    List<List<Object>> uncached = query(sql).rows();
    ColumnCache.Stats before = cache.stats();
    List<List<Object>> loaded = collect(cached.execute(sql, cached.prepare(sql).pins(), List.of(), allocator))
        .rows();
    ColumnCache.Stats afterLoad = cache.stats();
    List<List<Object>> again = collect(cached.execute(sql, cached.prepare(sql).pins(), List.of(), allocator))
        .rows();
    ColumnCache.Stats afterHit = cache.stats();
    assertThat(loaded).containsExactlyInAnyOrderElementsOf(uncached);
    assertThat(again).containsExactlyInAnyOrderElementsOf(uncached);
    assertThat(afterLoad.misses()).as("the first run reads both columns from Lance").isEqualTo(before.misses() + 2);
    assertThat(afterLoad.bytes()).isGreaterThan(before.bytes());
    assertThat(afterHit.hits()).as("the second run reads both columns from the cache").isEqualTo(afterLoad.hits() + 2);
    assertThat(afterHit.misses()).isEqualTo(afterLoad.misses());

    // a new version (another fragment, and the same fragment ids in a new version key) is never served stale
    TableRegistration appended = appendRows(first, schema, List.of(row("customer-1", 1_000_000L),
        row("newcomer", 5L)));
    List<List<Object>> afterAppend = collect(cached.execute(sql, cached.prepare(sql).pins(), List.of(), allocator))
        .rows();
    assertThat(afterAppend).containsExactlyInAnyOrderElementsOf(query(sql).rows());
    assertThat(afterAppend).contains(List.of("newcomer", 1L, 5L));
    long customer1 = afterAppend.stream().filter(r -> "customer-1".equals(r.get(0))).mapToLong(r -> (Long) r.get(2))
        .sum();
    long expected = 1_000_000L;
    for (int i = 1; i < 3_000; i += 1_000) {
      expected += i % 7 == 0 ? 0 : i;
    }
    assertThat(customer1).isEqualTo(expected);

    // an overwrite restarts Lance's fragment ids: fragment 0 of the new version holds other rows than before
    List<List<Object>> replacement = List.of(row("replaced", 7L), row("replaced", 8L), row(null, 9L));
    StagedData staged = engine.stage(appended.location(), Rows.reader(allocator, schema, replacement, 1_000));
    long version = engine.commit(appended.location(), appended.version(), new TableChange.Overwrite(staged));
    catalog.put(appended.withVersion(version, appended.schema(), 1, java.time.Instant.now()));
    List<List<Object>> overwritten = collect(cached.execute(sql, cached.prepare(sql).pins(), List.of(), allocator))
        .rows();
    assertThat(overwritten).containsExactlyInAnyOrder(List.of("replaced", 2L, 15L), java.util.Arrays.asList(null,
        1L, 9L));
  }

  @Test
  void aggregateOfAggregatesRunsVectorized() {
    for (String sql : List.of(
        "SELECT MAX(total) AS top, MIN(total) AS bottom, SUM(total) AS whole, COUNT(*) AS groups_n FROM"
            + " (SELECT s, SUM(price) AS total FROM items WHERE qty > 5 GROUP BY s) t",
        "SELECT c, COUNT(*) AS n FROM (SELECT k, \"d\", COUNT(*) AS c FROM items GROUP BY k, \"d\") t GROUP BY c"
            + " ORDER BY c")) {
      assertThat(explain(sql)).as(sql).startsWith("vectorized").contains("engine=[vectorized]");
      List<List<Object>> vectorized = query(sql).rows();
      List<List<Object>> lance = collect(lanceSql.execute(sql, lanceSql.prepare(sql).pins(), List.of(), allocator))
          .rows();
      assertThat(vectorized).as(sql).hasSameSizeAs(lance).containsExactlyInAnyOrderElementsOf(lance);
    }
  }

  @Test
  void plainScansUnderCalcitesJoinsReadCachedColumns() {
    String sql = "SELECT a.id, a.s, a.price, a.\"d\", b.ratio, b.k FROM items a JOIN items b ON a.id = b.id + 1"
        + " WHERE a.qty > 30 AND b.ratio < 50.0 AND a.s <> 'b' AND b.\"d\" BETWEEN DATE '1994-06-01' AND DATE"
        + " '1997-01-01'";
    assertThat(explain(sql)).contains("LanceTableScan").doesNotContain("VectorJoin");
    List<List<Object>> fromLance = collect(service.execute(sql, service.prepare(sql).pins(), List.of(), allocator))
        .rows();
    ColumnCache.Stats before = cache.stats();
    List<List<Object>> first = collect(cached.execute(sql, cached.prepare(sql).pins(), List.of(), allocator)).rows();
    ColumnCache.Stats middle = cache.stats();
    List<List<Object>> second = collect(cached.execute(sql, cached.prepare(sql).pins(), List.of(), allocator))
        .rows();
    ColumnCache.Stats after = cache.stats();
    assertThat(fromLance).isNotEmpty();
    assertThat(first).containsExactlyInAnyOrderElementsOf(fromLance);
    assertThat(second).containsExactlyInAnyOrderElementsOf(fromLance);
    assertThat(middle.hits() + middle.misses()).as("the scans went through the cache")
        .isGreaterThan(before.hits() + before.misses());
    assertThat(after.hits()).as("the second run read cached columns").isGreaterThan(middle.hits());
    assertThat(after.misses()).isEqualTo(middle.misses());
  }

  @Test
  void plannerKeepsAggregatesOfManyGroupsInLanceSql() {
    String many = explain("SELECT v, SUM(c) AS total FROM keyed GROUP BY v");
    assertThat(many).startsWith("lance-sql").contains("engine=[lance-sql]").contains("groups: Lance's SQL engine");
    String few = explain("SELECT g, SUM(c) AS total FROM keyed GROUP BY g");
    assertThat(few).startsWith("vectorized").contains("engine=[vectorized]").contains("aggregate of about 2 groups");
    assertThat(query("SELECT g, SUM(c) AS total FROM keyed GROUP BY g ORDER BY g").rows()).containsExactly(
        List.of("even", new BigDecimal("15999600.00")), List.of("odd", new BigDecimal("16000000.00")));
    // the shipped limit (query.vectorized-max-groups) keeps 80,000 groups vectorized, with the same answer
    try (QueryService shipped = new QueryService(catalog, engine, QueryOptions.defaults())) {
      String sql = "SELECT v, SUM(c) AS total FROM keyed GROUP BY v";
      String plan = String.join("\n", collect(shipped.execute("EXPLAIN PLAN FOR " + sql,
          shipped.prepare("EXPLAIN PLAN FOR " + sql).pins(), List.of(), allocator)).rows().stream()
          .map(r -> String.valueOf(r.get(0))).toList());
      assertThat(plan).startsWith("vectorized").contains("engine=[vectorized]").contains("aggregate of about");
      assertThat(collect(shipped.execute(sql, shipped.prepare(sql).pins(), List.of(), allocator)).rows())
          .containsExactlyInAnyOrderElementsOf(query(sql).rows());
    }
  }

  private static BigDecimal decimal(Object value) {
    return value instanceof BigDecimal ? (BigDecimal) value : new BigDecimal(value.toString());
  }

  private String explain(String sql) {
    return String.join("\n", query("EXPLAIN PLAN FOR " + sql).rows().stream()
        .map(r -> String.valueOf(r.get(0))).toList());
  }

  /**
   * Compares answered rows (keys first, then aggregates) with the reference by group: integers, decimals, strings
   * and dates exactly — averages within {@code averageSlack} (Lance truncates decimal averages to 6 places) —,
   * doubles within 1e-9 relative.
   */
  private static void assertSameGroups(String sql, String engine, List<List<Object>> answered,
      Map<List<Object>, List<Object>> expected, RandomQuery query, double averageSlack) {
    int keys = query.keys().size();
    Map<List<Object>, List<Object>> byKey = new HashMap<>();
    for (List<Object> row : answered) {
      List<Object> key = new ArrayList<>(row.subList(0, keys));
      assertThat(byKey.put(key, row.subList(keys, row.size()))).as("%s: duplicate group %s in %s", engine, key, sql)
          .isNull();
    }
    assertThat(byKey.keySet()).as("%s groups of %s", engine, sql).containsExactlyInAnyOrderElementsOf(
        expected.keySet());
    for (Map.Entry<List<Object>, List<Object>> group : expected.entrySet()) {
      List<Object> got = byKey.get(group.getKey());
      for (int a = 0; a < group.getValue().size(); a++) {
        Object want = group.getValue().get(a);
        Object have = got.get(a);
        String what = engine + " " + query.aggregates().get(a) + " of group " + group.getKey() + " in " + sql;
        if (want == null || have == null) {
          assertThat(have).as(what).isEqualTo(want);
        } else if (want instanceof Double) {
          double w = (Double) want;
          assertThat(((Number) have).doubleValue()).as(what)
              .isCloseTo(w, org.assertj.core.data.Offset.offset(Math.max(1e-9 * Math.abs(w), 1e-12)));
        } else if (want instanceof BigDecimal) {
          BigDecimal difference = decimal(have).subtract((BigDecimal) want).abs();
          double slack = query.aggregates().get(a).startsWith("AVG") ? Math.max(averageSlack, 1e-6) : 0;
          assertThat(difference.doubleValue()).as(what + ": " + have + " vs " + want).isLessThanOrEqualTo(slack);
        } else if (want instanceof Long || want instanceof Integer) {
          assertThat(((Number) have).longValue()).as(what).isEqualTo(((Number) want).longValue());
        } else {
          assertThat(have).as(what).isEqualTo(want);
        }
      }
    }
    Objects.requireNonNull(sql);
  }
}
