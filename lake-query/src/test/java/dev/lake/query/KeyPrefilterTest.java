package dev.lake.query;

import static dev.lake.query.Rows.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.query.plan.SubtreeExecutor;
import dev.lake.registry.TableRegistration;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The keys of a vectorized probe pipeline's later joins are tested before its first join (TPC-H Q9's part keys before
 * partsupp): randomized aggregates over chains of joins — keys addressed directly, hashed behind a bit filter (keys
 * spread over a range too wide for bits), packed pairs, strings (no test), NULL keys, duplicated build keys, outer
 * joins keeping either side's rows and EXISTS / NOT EXISTS between them, build filters that keep nearly everything
 * (the test is dropped after its trial rows) or nearly nothing — answer exactly what Calcite's own joins answer, and
 * EXPLAIN says when later joins' keys are tested first.
 */
class KeyPrefilterTest extends LakeTestSupport {
  private static final Schema FACT = new Schema(List.of(
      Field.notNullable("id", new ArrowType.Int(64, true)),
      Field.nullable("a", new ArrowType.Int(32, true)),
      Field.nullable("b", new ArrowType.Int(64, true)),
      Field.nullable("c", new ArrowType.Int(32, true)),
      Field.nullable("d", new ArrowType.Int(32, true)),
      Field.nullable("s", ArrowType.Utf8.INSTANCE),
      Field.notNullable("amount", new ArrowType.Decimal(12, 2, 128))));
  private static final Schema DIM_A = new Schema(List.of(
      Field.nullable("k", new ArrowType.Int(32, true)),
      Field.notNullable("name", ArrowType.Utf8.INSTANCE)));
  private static final Schema DIM_B = new Schema(List.of(
      Field.nullable("k", new ArrowType.Int(64, true)),
      Field.notNullable("tag", new ArrowType.Int(32, true))));
  private static final Schema DIM_C = new Schema(List.of(
      Field.nullable("c", new ArrowType.Int(32, true)),
      Field.nullable("d", new ArrowType.Int(32, true)),
      Field.notNullable("w", new ArrowType.Int(32, true))));
  private static final Schema DIM_S = new Schema(List.of(
      Field.nullable("s", ArrowType.Utf8.INSTANCE),
      Field.notNullable("g", new ArrowType.Int(32, true))));
  /** Apart by more than the widest range a join table holds bits for: dim_b's keys are hashed. */
  private static final long B_STRIDE = 1_000_003L;
  private static final int FRAGMENTS = 3;
  /** Enough rows that a test's trial ends and a test keeping most rows is dropped during the scan. */
  private static final int ROWS_PER_FRAGMENT = 30_000;
  private static final int QUERIES = 36;

  private QueryService calciteJoins;

  @Override
  QueryOptions options() {
    return QueryOptions.defaults().withExecutor(SubtreeExecutor.AUTO).withBatchSize(1_000);
  }

  @Override
  void createTables() {
    Random random = new Random(11);
    TableRegistration registration = null;
    for (int f = 0; f < FRAGMENTS; f++) {
      List<List<Object>> rows = new ArrayList<>();
      for (int i = 0; i < ROWS_PER_FRAGMENT; i++) {
        rows.add(row((long) f * ROWS_PER_FRAGMENT + i, nullOr(random, random.nextInt(1_000)),
            nullOr(random, random.nextInt(200) * B_STRIDE), nullOr(random, random.nextInt(50)),
            nullOr(random, random.nextInt(40)), nullOr(random, "s" + random.nextInt(30)),
            BigDecimal.valueOf(random.nextInt(100_000), 2)));
      }
      registration = registration == null ? createTable("fact", FACT, rows) : appendRows(registration, FACT, rows);
    }
    List<List<Object>> dimA = new ArrayList<>();
    for (int k = 0; k < 1_000; k++) {
      for (int copy = k % 3 == 0 ? 2 : 1; copy > 0; copy--) {
        dimA.add(row(k, "n" + (k % 9)));
      }
    }
    dimA.add(row(null, "nullkey"));
    createTable("dim_a", DIM_A, dimA);
    List<List<Object>> dimB = new ArrayList<>();
    for (int k = 0; k < 200; k++) {
      dimB.add(row(k * B_STRIDE, k % 20));
    }
    dimB.add(row(null, 0));
    dimB.add(row(7L, 0)); // a key no fact row holds
    createTable("dim_b", DIM_B, dimB);
    List<List<Object>> dimC = new ArrayList<>();
    for (int c = 0; c < 50; c++) {
      for (int d = 0; d < 40; d += 1 + c % 3) {
        dimC.add(row(c, d, (c * 7 + d) % 25));
      }
    }
    dimC.add(row(null, 1, 0));
    dimC.add(row(1, null, 0));
    createTable("dim_c", DIM_C, dimC);
    List<List<Object>> dimS = new ArrayList<>();
    for (int k = 0; k < 30; k += 2) {
      dimS.add(row("s" + k, k % 4));
    }
    dimS.add(row(null, 1));
    createTable("dim_s", DIM_S, dimS);
    calciteJoins = new QueryService(catalog, engine, QueryOptions.defaults().withExecutor(SubtreeExecutor.LANCE_SQL));
  }

  @AfterAll
  void closeServices() {
    calciteJoins.close();
  }

  private static <T> T nullOr(Random random, T value) {
    return random.nextInt(12) == 0 ? null : value;
  }

  @Test
  void laterJoinsKeysAreTestedFirstAndAnswersStayExact() {
    Random random = new Random(23);
    int prefiltered = 0;
    for (int q = 0; q < QUERIES; q++) {
      String sql = randomQuery(random);
      String plan = explain(service, sql);
      assertThat(plan).as(sql).startsWith("join-vectorized");
      if (plan.contains("later join(s) are tested before the first")) {
        prefiltered++;
      }
      List<List<Object>> vectorized = sorted(query(sql).rows());
      List<List<Object>> calcite = sorted(collect(calciteJoins.execute(sql, calciteJoins.prepare(sql).pins(),
          List.of(), allocator)).rows());
      assertThat(vectorized).as(sql).isEqualTo(calcite);
    }
    assertThat(prefiltered).as("statements whose later joins' keys are tested first").isGreaterThan(QUERIES / 3);
  }

  /** Q9's shape: the selective join comes after one every fact row passes; EXPLAIN names the test. */
  @Test
  void aSelectiveLaterJoinIsTestedBeforeAnUnselectiveFirstOne() {
    String sql = "SELECT a.name, COUNT(*) AS n, SUM(f.amount) AS total FROM fact f JOIN dim_a a ON f.a = a.k"
        + " JOIN dim_b b ON f.b = b.k JOIN dim_c c ON f.c = c.c AND f.d = c.d WHERE b.tag = 3 AND c.w < 5"
        + " GROUP BY a.name";
    assertThat(explain(service, sql)).contains("later join(s) are tested before the first");
    assertThat(sorted(query(sql).rows())).isEqualTo(sorted(collect(calciteJoins.execute(sql,
        calciteJoins.prepare(sql).pins(), List.of(), allocator)).rows()));
  }

  private static String randomQuery(Random random) {
    String bFilter = random.nextBoolean() ? "b.tag < " + (1 + random.nextInt(20)) : "b.tag <> 99";
    String cFilter = random.nextBoolean() ? "c.w < " + random.nextInt(25) : "c.w >= 0";
    String factFilter = random.nextBoolean() ? "" : " AND f.amount < " + (100 + random.nextInt(900));
    String aggregate = "COUNT(*) AS n, SUM(f.amount) AS total, MIN(f.id) AS first_id";
    switch (random.nextInt(6)) {
      case 0:
        return "SELECT a.name, " + aggregate + " FROM fact f JOIN dim_a a ON f.a = a.k JOIN dim_b b ON f.b = b.k"
            + " WHERE " + bFilter + factFilter + " GROUP BY a.name";
      case 1:
        return "SELECT b.tag, " + aggregate + " FROM fact f JOIN dim_a a ON f.a = a.k JOIN dim_b b ON f.b = b.k"
            + " JOIN dim_c c ON f.c = c.c AND f.d = c.d WHERE " + bFilter + " AND " + cFilter + factFilter
            + " GROUP BY b.tag";
      case 2:
        // a string key: its table has no cheap test
        return "SELECT s.g, " + aggregate + " FROM fact f JOIN dim_a a ON f.a = a.k JOIN dim_s s ON f.s = s.s"
            + " JOIN dim_b b ON f.b = b.k WHERE " + bFilter + factFilter + " GROUP BY s.g";
      case 3:
        // an outer join keeping the fact rows between the joins
        return "SELECT s.g, " + aggregate + " FROM fact f JOIN dim_a a ON f.a = a.k LEFT JOIN dim_s s ON f.s = s.s"
            + " JOIN dim_c c ON f.c = c.c AND f.d = c.d WHERE " + cFilter + factFilter + " GROUP BY s.g";
      case 4:
        // an outer join keeping the build rows: whatever follows it is not tested first
        return "SELECT a.name, " + aggregate + " FROM fact f RIGHT JOIN dim_a a ON f.a = a.k"
            + " JOIN dim_b b ON f.b = b.k WHERE " + bFilter + " GROUP BY a.name";
      default:
        return "SELECT a.name, " + aggregate + " FROM fact f JOIN dim_a a ON f.a = a.k WHERE "
            + (random.nextBoolean() ? "" : "NOT ") + "EXISTS (SELECT 1 FROM dim_b b WHERE b.k = f.b AND " + bFilter
            + ") AND EXISTS (SELECT 1 FROM dim_c c WHERE c.c = f.c AND c.d = f.d AND " + cFilter + ")" + factFilter
            + " GROUP BY a.name";
    }
  }
}
