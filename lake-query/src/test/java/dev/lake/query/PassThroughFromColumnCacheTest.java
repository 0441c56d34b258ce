package dev.lake.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.query.vector.ColumnCache;
import dev.lake.query.vector.VectorRuntime;
import dev.lake.registry.TableRegistration;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.lance.Dataset;

/**
 * A statement that is one pass-through scan (a point query, a filtered scan, a LIMIT) is answered from the vectorized
 * executor's column cache once its columns are cached, and a key equality on an integer column finds its rows through
 * the column's positions instead of a pass (issue 22, point queries): differential against a service without a cache
 * (Lance's scan) over random data with NULLs, duplicate and absent keys, an ascending key and an unordered one, a key
 * held beyond an int's span, several fragments and a deletion — the same rows in the same order with the same schema,
 * prepared with parameters and as literal SQL; and after the data changes (a delete, an append) the cache never serves
 * the rows of the version before.
 */
class PassThroughFromColumnCacheTest extends LakeTestSupport {
  private static final String[] WORDS = {"1-URGENT", "2-HIGH", "it's", "", "5-LOW"};
  private static final Schema SCHEMA = new Schema(List.of(
      Field.notNullable("id", new ArrowType.Int(64, true)),
      Field.nullable("k", new ArrowType.Int(64, true)),
      Field.nullable("i", new ArrowType.Int(32, true)),
      Field.nullable("small", new ArrowType.Int(16, true)),
      Field.nullable("big", new ArrowType.Int(64, true)),
      Field.nullable("p", ArrowType.Utf8.INSTANCE),
      Field.nullable("s", ArrowType.Utf8.INSTANCE),
      Field.nullable("amount", new ArrowType.Decimal(15, 2, 128)),
      Field.nullable("day", new ArrowType.Date(DateUnit.DAY)),
      Field.nullable("d", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
      Field.nullable("f", ArrowType.Bool.INSTANCE)));
  private static final Schema TIMED = new Schema(List.of(
      Field.notNullable("id", new ArrowType.Int(64, true)),
      Field.nullable("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null))));
  /** Executions of one statement over one version before its columns are loaded (RepeatedScans.LOAD_AFTER). */
  private static final int WARM = 8;

  private final Random random = new Random(2212);
  private int next;

  private List<List<Object>> rows(int count) {
    List<List<Object>> rows = new ArrayList<>();
    for (int n = 0; n < count; n++, next++) {
      rows.add(Arrays.asList((long) next,
          nullOr(() -> (long) random.nextInt(600) - 20),
          nullOr(() -> random.nextInt(2_000) - 1_000),
          nullOr(() -> (short) (random.nextInt(40) - 20)),
          nullOr(() -> random.nextLong() >> 20),
          nullOr(() -> WORDS[random.nextInt(WORDS.length)]),
          nullOr(() -> "s" + random.nextInt(100_000)),
          nullOr(() -> BigDecimal.valueOf(random.nextInt(2_000) - 1_000, 2)),
          nullOr(() -> LocalDate.of(1995, 1, 1).plusDays(random.nextInt(300))),
          nullOr(() -> random.nextDouble()),
          nullOr(() -> random.nextBoolean())));
    }
    return rows;
  }

  private Object nullOr(java.util.function.Supplier<Object> value) {
    return random.nextInt(12) == 0 ? null : value.get();
  }

  @Test
  void passThroughScansAnswerFromTheColumnCacheExactly() throws Exception {
    TableRegistration table = createTable("points", SCHEMA, rows(3_000));
    table = appendRows(table, SCHEMA, rows(2_500));
    table = appendRows(table, SCHEMA, rows(1_500));
    try (Dataset dataset = Dataset.open().allocator(allocator).uri(table.location()).build()) {
      dataset.delete("id >= 3100 AND id < 3400");
    }
    table = register(table);
    try (QueryService uncached = serviceWith(new ColumnCache(0));
        QueryService cached = serviceWith(new ColumnCache(256L << 20))) {
      compareAll(uncached, cached, "points");
      assertThat(uncached.pushdownStats().cachedScans()).isZero();

      // the data changes: a delete in the first fragment, then an append; the cache serves neither version before
      try (Dataset dataset = Dataset.open().allocator(allocator).uri(table.location()).build()) {
        dataset.delete("id < 200 OR k = 17");
      }
      table = register(table);
      compareAll(uncached, cached, "points");
      table = appendRows(table, SCHEMA, rows(1_000));
      compareAll(uncached, cached, "points");
    }
  }

  @Test
  void aScanOfAColumnTheExecutorDoesNotWriteReadsLance() {
    createTable("timed", TIMED, List.of(
        Arrays.asList(1L, LocalDateTime.of(2024, 3, 1, 12, 0, 0, 123_456_000)),
        Arrays.asList(2L, null),
        Arrays.asList(3L, LocalDateTime.of(2024, 3, 1, 12, 0, 0, 1_000))));
    try (QueryService uncached = serviceWith(new ColumnCache(0));
        QueryService cached = serviceWith(new ColumnCache(64L << 20))) {
      for (int round = 0; round < WARM * 2; round++) {
        String sql = "SELECT * FROM timed WHERE id = ?";
        assertThat(run(cached, sql, List.of(1L + round % 3))).isEqualTo(run(uncached, sql, List.of(1L + round % 3)));
      }
      assertThat(cached.pushdownStats().cachedScans()).isZero();
    }
  }

  @Test
  void aWholeUnfilteredScanMovesLancesBuffers() {
    createTable("whole", SCHEMA, rows(500));
    try (QueryService uncached = serviceWith(new ColumnCache(0));
        QueryService cached = serviceWith(new ColumnCache(64L << 20))) {
      for (int round = 0; round < WARM * 2; round++) {
        String sql = "SELECT id, k, p FROM whole";
        assertThat(run(cached, sql, List.of())).isEqualTo(run(uncached, sql, List.of()));
      }
      assertThat(cached.pushdownStats().cachedScans()).isZero();
    }
  }

  /** Every statement shape, prepared and literal, executed often enough for its columns to be loaded and served. */
  private void compareAll(QueryService uncached, QueryService cached, String t) {
    for (int round = 0; round < WARM + 2; round++) {
      List<Object[]> cases = new ArrayList<>();
      long id = random.nextInt(next + 50) - 10;
      long k = random.nextInt(640) - 30;
      cases.add(new Object[] {"SELECT * FROM " + t + " WHERE id = ?", List.of(id)});
      cases.add(new Object[] {"SELECT * FROM " + t + " WHERE k = ?", List.of(k)});
      cases.add(new Object[] {"SELECT id, s, amount FROM " + t + " WHERE ? = k", List.of(k)});
      cases.add(new Object[] {"SELECT id, k FROM " + t + " WHERE k = ? LIMIT 3", List.of(k)});
      cases.add(new Object[] {"SELECT * FROM " + t + " WHERE i = ? AND k > ?",
          List.of(random.nextInt(2_100) - 1_050, random.nextInt(300))});
      cases.add(new Object[] {"SELECT id, small FROM " + t + " WHERE small = ?", List.of(random.nextInt(50) - 25)});
      cases.add(new Object[] {"SELECT id, p FROM " + t + " WHERE p = ? LIMIT 7", List.of(WORDS[round % 5])});
      cases.add(new Object[] {"SELECT * FROM " + t + " WHERE p = ? LIMIT 10", List.of(WORDS[round % 5])});
      cases.add(new Object[] {"SELECT id, s FROM " + t + " WHERE s = ?", List.of("s" + random.nextInt(100_000))});
      cases.add(new Object[] {"SELECT id, amount FROM " + t + " WHERE amount = ?",
          List.of(BigDecimal.valueOf(random.nextInt(2_000) - 1_000, 2))});
      cases.add(new Object[] {"SELECT id, day FROM " + t + " WHERE day = ?",
          List.of(LocalDate.of(1995, 1, 1).plusDays(random.nextInt(310)))});
      cases.add(new Object[] {"SELECT id, big FROM " + t + " WHERE big = ?", List.of(random.nextLong() >> 20)});
      cases.add(new Object[] {"SELECT id FROM " + t + " WHERE k = ?",
          List.of(round % 2 == 0 ? Long.MAX_VALUE : Long.MIN_VALUE + 1)});
      cases.add(new Object[] {"SELECT * FROM " + t + " WHERE id = " + id, List.of()});
      cases.add(new Object[] {"SELECT id, d, f FROM " + t + " WHERE d < 0.25 AND f", List.of()});
      cases.add(new Object[] {"SELECT * FROM " + t + " WHERE amount > 5.00 LIMIT 100", List.of()});
      cases.add(new Object[] {"SELECT id, k, i FROM " + t + " WHERE k IN (1, 2, 3, 500) OR i < -990", List.of()});
      cases.add(new Object[] {"SELECT * FROM " + t + " LIMIT 5", List.of()});
      cases.add(new Object[] {"SELECT id, p FROM " + t + " WHERE id >= 0", List.of()});
      long before = cached.pushdownStats().cachedScans();
      for (Object[] c : cases) {
        @SuppressWarnings("unchecked")
        List<Object> values = (List<Object>) c[1];
        Result expected = result(uncached, (String) c[0], values);
        Result actual = result(cached, (String) c[0], values);
        assertThat(actual.schema()).as("%s %s", c[0], values).isEqualTo(expected.schema());
        assertThat(actual.rows()).as("%s %s", c[0], values).isEqualTo(expected.rows());
      }
      if (round >= WARM) {
        assertThat(cached.pushdownStats().cachedScans() - before)
            .as("round %d: every execution served from the column cache", round).isEqualTo(cases.size());
      }
    }
    // a value Lance's filter cannot express is planned as a literal (another engine): the same answer
    String sql = "SELECT id FROM " + t + " WHERE k = ?";
    assertThat(run(cached, sql, List.of(Long.MIN_VALUE))).isEqualTo(run(uncached, sql, List.of(Long.MIN_VALUE)));
  }

  /**
   * A point query read from the cache writes its row into vectors sized for the rows it has, not Arrow's default
   * ~4,000 values per column (allocated and released on every execution); a longer value still fits (the writers grow).
   */
  @Test
  void aPointQueryFromTheCacheWritesBatchesSizedToItsRows() throws Exception {
    List<List<Object>> data = rows(2_000);
    data.set(1_234, Arrays.asList(1_234L, 7L, 1, (short) 1, 2L, "x".repeat(5_000), "long", BigDecimal.ONE,
        LocalDate.of(1995, 1, 1), 0.5, true));
    createTable("sized", SCHEMA, data);
    try (QueryService cached = serviceWith(new ColumnCache(64L << 20))) {
      String sql = "SELECT * FROM sized WHERE id = ?";
      for (int round = 0; round < WARM + 2; round++) {
        run(cached, sql, List.of(1_234L));
      }
      long before = cached.pushdownStats().cachedScans();
      try (org.apache.arrow.vector.ipc.ArrowReader reader = cached.execute(sql, cached.prepare(sql).pins(),
          List.of(1_234L), allocator)) {
        assertThat(reader.loadNextBatch()).isTrue();
        org.apache.arrow.vector.VectorSchemaRoot root = reader.getVectorSchemaRoot();
        assertThat(root.getRowCount()).isEqualTo(1);
        assertThat(root.getVector("p").getObject(0).toString()).isEqualTo("x".repeat(5_000));
        for (org.apache.arrow.vector.FieldVector vector : root.getFieldVectors()) {
          assertThat(vector.getValueCapacity()).as(vector.getName()).isLessThanOrEqualTo(64); // default: ~4,000
        }
      }
      assertThat(cached.pushdownStats().cachedScans() - before).as("read from the cache").isEqualTo(1);
    }
  }

  private QueryService serviceWith(ColumnCache cache) {
    return new QueryService(catalog, engine, options(), new VectorRuntime(2, 8_192, cache));
  }

  private Result result(QueryService on, String sql, List<Object> values) {
    return collect(on.execute(sql, on.prepare(sql).pins(), values, allocator));
  }

  private List<List<Object>> run(QueryService on, String sql, List<Object> values) {
    return result(on, sql, values).rows();
  }
}
