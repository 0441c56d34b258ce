package dev.lake.query;

import dev.lake.query.model.PushdownStats;
import static dev.lake.query.Rows.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Whole single-table subtrees run in Lance's SQL engine: every SQL construct lake generates is accepted by Lance (no
 * fallback) and answers exactly what Calcite computes over Lance scans; decimals, dates and microsecond timestamps
 * keep their exact types; a subtree under a join is read as rows.
 */
class LanceSqlPushdownTest extends LakeTestSupport {
  private static final ArrowType MICROS = new ArrowType.Timestamp(TimeUnit.MICROSECOND, null);
  private static final Schema ITEMS = new Schema(List.of(
      Field.notNullable("id", new ArrowType.Int(64, true)),
      Field.nullable("qty", new ArrowType.Int(32, true)),
      Field.nullable("price", new ArrowType.Decimal(15, 2, 128)),
      Field.nullable("ratio", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
      Field.nullable("d", new ArrowType.Date(DateUnit.DAY)),
      Field.nullable("ts", MICROS),
      Field.nullable("name", ArrowType.Utf8.INSTANCE),
      Field.nullable("Mixed Case", new ArrowType.Int(32, true)),
      Field.nullable("flag", ArrowType.Bool.INSTANCE)));
  private static final String[] NAMES = {"alpha", "it's", "", null, "back\\slash", "50%off", "x_y", "béta", "alpha"};
  private static final LocalDateTime T0 = LocalDateTime.of(2024, 1, 1, 0, 0);

  private QueryService calcite;

  /** These tests are about Lance's SQL engine: the planner's choice of the vectorized executor is turned off. */
  @Override
  QueryOptions options() {
    return QueryOptions.defaults().withExecutor(dev.lake.query.plan.SubtreeExecutor.LANCE_SQL);
  }

  @Override
  void createTables() {
    List<List<Object>> rows = new ArrayList<>();
    for (int i = 0; i < NAMES.length; i++) {
      rows.add(row((long) i, i % 4 == 3 ? null : i % 4, new BigDecimal(i * 37 + ".1" + i), i / 3.0,
          LocalDate.of(2023, 11, 20).plusDays(i * 9L), T0.plusSeconds(i).plusNanos(i * 1_000L + 1_000L), NAMES[i],
          i * 10, i % 2 == 0));
    }
    createTable("items", ITEMS, rows);
    calcite = new QueryService(catalog, engine, QueryOptions.defaults().withSubtreePushDown(false));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "SELECT name, COUNT(*) AS n, SUM(price) AS total, AVG(qty) AS mean, MIN(d) AS first_day FROM items"
          + " WHERE qty > 0 GROUP BY name ORDER BY name NULLS FIRST",
      "SELECT id, price * (1 - CAST(0.05 AS DECIMAL(3, 2))) AS net, price + 1.25 AS up, -price AS neg FROM items"
          + " WHERE price BETWEEN 1.00 AND 200.00 ORDER BY id",
      "SELECT id, d + INTERVAL '1' DAY AS next_day, d + INTERVAL '1' MONTH AS next_month FROM items"
          + " WHERE d < DATE '2024-01-01' + INTERVAL '1' MONTH ORDER BY id",
      "SELECT EXTRACT(YEAR FROM d) AS y, EXTRACT(MONTH FROM ts) AS m,"
          + " CASE WHEN qty > 1 THEN 'big' WHEN qty IS NULL THEN 'none' ELSE 'small' END AS size, COUNT(*) AS n"
          + " FROM items GROUP BY EXTRACT(YEAR FROM d), EXTRACT(MONTH FROM ts),"
          + " CASE WHEN qty > 1 THEN 'big' WHEN qty IS NULL THEN 'none' ELSE 'small' END ORDER BY 1, 2, 3",
      "SELECT COUNT(*) AS n FROM items WHERE name LIKE '%\\_%' ESCAPE '\\' OR name LIKE 'it''s%'"
          + " OR name LIKE '%\\%' OR name LIKE '_0!%%' ESCAPE '!'",
      "SELECT id FROM items WHERE name NOT LIKE '%a%' AND UPPER(name) <> 'X' ORDER BY id",
      "SELECT SUBSTRING(name FROM 2 FOR 3) AS part, COUNT(*) AS n FROM items GROUP BY SUBSTRING(name FROM 2 FOR 3)"
          + " ORDER BY 1 NULLS LAST",
      "SELECT \"Mixed Case\", COALESCE(name, '?') AS name FROM items WHERE id IN (1, 3, 5) OR name IS NULL"
          + " ORDER BY id DESC",
      "SELECT DISTINCT qty FROM items ORDER BY qty DESC NULLS LAST LIMIT 2 OFFSET 1",
      "SELECT COUNT(DISTINCT qty) AS kinds, COUNT(qty) AS known, MAX(name) AS last_name FROM items",
      "SELECT COUNT(*) AS n FROM items WHERE flag IS TRUE AND NOT (qty = 2)",
      "SELECT id / 2 AS half, MOD(id, 3) AS rest, price * 1000000000000 AS big FROM items ORDER BY id",
      "SELECT SUM(ratio) AS s, AVG(ratio) AS a, MIN(ratio * 2) AS m FROM items WHERE ratio > 0.5",
      "SELECT UPPER(name) || '!' AS shout, LOWER(name) AS low FROM items WHERE name <> '' OR qty > 1"
          + " ORDER BY id",
      "SELECT qty, SUM(price) FILTER (WHERE flag) AS flagged FROM items GROUP BY qty ORDER BY qty NULLS FIRST",
  })
  void everyGeneratedConstructRunsInLanceAndAnswersLikeCalcite(String sql) {
    PushdownStats before = service.pushdownStats();
    Result pushed = query(sql);
    PushdownStats after = service.pushdownStats();
    assertThat(after.fallbacks()).as("Lance rejected the statement").isEqualTo(before.fallbacks());
    assertThat(after.statements()).as("Lance SQL statements run").isGreaterThan(before.statements());
    Result reference = collect(calcite.execute(sql, calcite.prepare(sql).pins(), List.of(), allocator));
    assertThat(pushed.schema()).isEqualTo(reference.schema());
    if (sql.contains("ORDER BY")) {
      assertThat(pushed.rows()).isEqualTo(reference.rows());
    } else {
      assertThat(sorted(pushed.rows())).isEqualTo(sorted(reference.rows()));
    }
  }

  /**
   * Lance's SQL engine wraps integer {@code + - *} on overflow (2^62 * 4 is 0 there): a subtree with integer arithmetic
   * runs where it is checked, and an overflow is a data error, never a wrapped value.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "SELECT id, id * 4611686018427387904 AS big FROM items ORDER BY id",
      "SELECT id, (id + 9223372036854775800) + id AS big FROM items ORDER BY id",
      "SELECT id FROM items WHERE id * 4611686018427387904 > 0 ORDER BY id",
      "SELECT id, -(id - 9223372036854775807 - 1) - 1 AS big FROM items ORDER BY id",
      "SELECT id, qty * 2147483647 * 2 AS big FROM items ORDER BY id"})
  void integerArithmeticNeverWraps(String sql) {
    assertThat(explain(sql)).doesNotStartWith("lance-sql").doesNotContain("LanceSqlScan(");
    assertThatThrownBy(() -> query(sql)).as(sql)
        .isInstanceOf(dev.lake.registry.error.CodedFailure.class) // negation names its type (IntegerFunctions)
        .satisfies(e -> assertThat(((dev.lake.registry.error.CodedFailure) e).errorCode())
            .isEqualTo(dev.lake.registry.error.ErrorCode.INVALID_ARGUMENT));
    String inRange = "SELECT id, id * 3 - 1 AS small FROM items ORDER BY id";
    assertThat(query(inRange).rows()).first().isEqualTo(List.of(0L, -1L));
  }

  @Test
  void wholeStatementIsOneLanceNodeAndStreamsLanceBatches() {
    String sql = "SELECT name, SUM(price) AS total FROM items WHERE qty > 0 GROUP BY name ORDER BY total DESC";
    String plan = explain(sql);
    assertThat(plan).startsWith("lance-sql").contains("LanceSqlScan(table=[items]")
        .contains("pushed=[[filter, aggregate, sort]]").doesNotContain("Enumerable");
    PushdownStats before = service.pushdownStats();
    assertThat(query(sql).rows()).first().isEqualTo(List.of("x_y", new BigDecimal("222.16")));
    assertThat(service.pushdownStats().wholeStatements()).isEqualTo(before.wholeStatements() + 1);
  }

  @Test
  void pushedSubtreeUnderAJoinIsReadAsRows() {
    String sql = "SELECT i.id, g.total FROM items i JOIN (SELECT qty, SUM(price) AS total FROM items GROUP BY qty) g"
        + " ON i.qty = g.qty ORDER BY i.id";
    String plan = explain(sql);
    assertThat(plan).startsWith("calcite").contains("LanceSqlScan(table=[items]").contains("pushed=[[aggregate]]")
        .contains("EnumerableHashJoin");
    PushdownStats before = service.pushdownStats();
    Result pushed = query(sql);
    assertThat(service.pushdownStats().statements()).isEqualTo(before.statements() + 1);
    assertThat(service.pushdownStats().wholeStatements()).isEqualTo(before.wholeStatements());
    Result reference = collect(calcite.execute(sql, calcite.prepare(sql).pins(), List.of(), allocator));
    assertThat(pushed.rows()).isEqualTo(reference.rows()).hasSize(7);
  }

  @Test
  void pushdownKeepsExactDecimalsDatesAndMicroseconds() {
    Result result = query("SELECT MAX(ts) AS last_at, MIN(ts) AS first_at, MIN(d) AS first_day,"
        + " SUM(price * 3) AS tripled, AVG(price) AS mean FROM items WHERE id > 0");
    assertThat(explain("SELECT MAX(ts) FROM items WHERE id > 0")).startsWith("lance-sql");
    assertThat(result.schema().getFields()).extracting(Field::getType).containsExactly(MICROS, MICROS,
        new ArrowType.Date(DateUnit.DAY), new ArrowType.Decimal(38, 2, 128), new ArrowType.Decimal(38, 6, 128));
    BigDecimal sum = BigDecimal.ZERO;
    for (int i = 1; i < NAMES.length; i++) {
      sum = sum.add(new BigDecimal(i * 37 + ".1" + i));
    }
    assertThat(result.rows()).containsExactly(List.of(T0.plusSeconds(8).plusNanos(9_000L),
        T0.plusSeconds(1).plusNanos(2_000L), LocalDate.of(2023, 11, 29), sum.multiply(BigDecimal.valueOf(3)),
        sum.divide(BigDecimal.valueOf(NAMES.length - 1), 6, java.math.RoundingMode.HALF_UP)));
  }

  /** Lance keeps the microseconds of a pushed-down sort (and so does Calcite's runtime since issue 21). */
  @Test
  void sortedTimestampsKeepTheirMicroseconds() {
    String sql = "SELECT id, ts FROM items WHERE ts > TIMESTAMP '2024-01-01 00:00:03' ORDER BY ts DESC LIMIT 3";
    assertThat(explain(sql)).startsWith("lance-sql").contains("pushed=[[filter, sort, limit]]");
    assertThat(query(sql).rows()).containsExactly(List.of(8L, T0.plusSeconds(8).plusNanos(9_000L)),
        List.of(7L, T0.plusSeconds(7).plusNanos(8_000L)), List.of(6L, T0.plusSeconds(6).plusNanos(7_000L)));
  }

  @Test
  void calcitePathIsChosenWhenPushdownIsOff() {
    String sql = "SELECT qty, COUNT(*) FROM items GROUP BY qty";
    Result plan = collect(calcite.execute("EXPLAIN PLAN FOR " + sql, calcite.prepare(sql).pins(), List.of(),
        allocator));
    assertThat(String.valueOf(plan.rows().get(0).get(0))).startsWith("calcite");
    assertThat(calcite.pushdownStats()).isEqualTo(new PushdownStats(0, 0, 0));
  }

  private String explain(String sql) {
    return String.join("\n", query("EXPLAIN PLAN FOR " + sql).column(0).stream().map(String::valueOf).toList());
  }
}
