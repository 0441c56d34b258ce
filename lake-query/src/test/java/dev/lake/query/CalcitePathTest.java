package dev.lake.query;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/** Everything that is not a plain scan runs in Calcite's Enumerable runtime and returns correctly typed batches. */
class CalcitePathTest extends LakeTestSupport {
  private static final ArrowType BIGINT = new ArrowType.Int(64, true);
  private static final Schema ORDERS = new Schema(List.of(
      Field.notNullable("id", BIGINT),
      Field.notNullable("customer_id", BIGINT),
      Field.nullable("amount", new ArrowType.Decimal(15, 2, 128)),
      Field.nullable("status", ArrowType.Utf8.INSTANCE),
      Field.nullable("ordered", new ArrowType.Date(DateUnit.DAY)),
      Field.nullable("discount", new ArrowType.Decimal(15, 2, 128))));
  private static final Schema CUSTOMERS = new Schema(List.of(
      Field.notNullable("id", BIGINT),
      Field.nullable("name", ArrowType.Utf8.INSTANCE)));

  @Override
  void createTables() {
    createTable("orders", ORDERS, List.of(
        Rows.row(1L, 10L, new BigDecimal("100.00"), "new", LocalDate.of(2024, 1, 5), new BigDecimal("0.04")),
        Rows.row(2L, 10L, new BigDecimal("50.50"), "shipped", LocalDate.of(2024, 2, 1), new BigDecimal("0.05")),
        Rows.row(3L, 20L, new BigDecimal("7.25"), "new", LocalDate.of(2024, 2, 9), new BigDecimal("0.05")),
        Rows.row(4L, 30L, null, null, null, null)));
    createTable("customers", CUSTOMERS, List.of(
        Rows.row(10L, "Ada"), Rows.row(20L, "Grace"), Rows.row(40L, "Edsger")));
  }

  @Test
  void groupByAggregatesHaveWidenedExactTypes() {
    Result result = query("SELECT status, COUNT(*) AS n, SUM(amount) AS total, AVG(discount) AS avg_disc,"
        + " MIN(ordered) AS first_order FROM orders GROUP BY status ORDER BY status NULLS FIRST");
    assertThat(result.schema().getFields()).extracting(Field::getName)
        .containsExactly("status", "n", "total", "avg_disc", "first_order");
    assertThat(result.schema().findField("n").getType()).isEqualTo(BIGINT);
    assertThat(result.schema().findField("n").isNullable()).isFalse();
    assertThat(result.schema().findField("total").getType()).isEqualTo(new ArrowType.Decimal(38, 2, 128));
    assertThat(result.schema().findField("avg_disc").getType()).isEqualTo(new ArrowType.Decimal(38, 6, 128));
    assertThat(result.schema().findField("first_order").getType()).isEqualTo(new ArrowType.Date(DateUnit.DAY));
    assertThat(result.rows()).containsExactly(
        Rows.row(null, 1L, null, null, null),
        List.of("new", 2L, new BigDecimal("107.25"), new BigDecimal("0.045000"), LocalDate.of(2024, 1, 5)),
        List.of("shipped", 1L, new BigDecimal("50.50"), new BigDecimal("0.050000"), LocalDate.of(2024, 2, 1)));
  }

  @Test
  void avgOverDecimalKeepsTheFraction() {
    Result result = query("SELECT AVG(discount) FROM orders");
    // 0.14 / 3 = 0.04666... rounded half up at scale 6 (Calcite's own division truncated: 0.046666).
    assertThat(result.rows()).containsExactly(List.of(new BigDecimal("0.046667")));
  }

  @Test
  void orderByAndLimitReturnTheTopRows() {
    Result result = query("SELECT id, amount FROM orders WHERE amount IS NOT NULL ORDER BY amount DESC LIMIT 2");
    assertThat(result.rows())
        .containsExactly(List.of(1L, new BigDecimal("100.00")), List.of(2L, new BigDecimal("50.50")));
  }

  @Test
  void joinOfTwoTables() {
    Result result = query("SELECT c.name, COUNT(o.id) AS orders FROM customers c LEFT JOIN orders o"
        + " ON o.customer_id = c.id GROUP BY c.name ORDER BY c.name");
    assertThat(result.rows()).containsExactly(List.of("Ada", 2L), List.of("Edsger", 0L), List.of("Grace", 1L));
    Result inner = query("SELECT o.id, c.name FROM orders o JOIN customers c ON o.customer_id = c.id"
        + " WHERE o.status = 'new' ORDER BY o.id");
    assertThat(inner.rows()).containsExactly(List.of(1L, "Ada"), List.of(3L, "Grace"));
  }

  @Test
  void expressionsProduceTheirSqlTypes() {
    Result result = query("SELECT id * 2 AS twice, UPPER(status) AS up, amount + 1 AS more,"
        + " CASE WHEN amount > 60 THEN 'big' ELSE 'small' END AS size, CAST(id AS VARCHAR) AS label,"
        + " EXTRACT(MONTH FROM ordered) AS m, CAST(amount AS DOUBLE) / 2 AS half, id > 1 AS later"
        + " FROM orders WHERE id <= 2 ORDER BY id");
    Schema schema = result.schema();
    assertThat(schema.findField("twice").getType()).isEqualTo(BIGINT);
    assertThat(schema.findField("up").getType()).isEqualTo(ArrowType.Utf8.INSTANCE);
    assertThat(schema.findField("more").getType()).isInstanceOf(ArrowType.Decimal.class);
    assertThat(schema.findField("half").getType())
        .isEqualTo(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE));
    assertThat(schema.findField("later").getType()).isEqualTo(ArrowType.Bool.INSTANCE);
    assertThat(result.rows()).containsExactly(
        List.of(2L, "NEW", new BigDecimal("101.00"), "big", "1", 1L, 50.0, false),
        List.of(4L, "SHIPPED", new BigDecimal("51.50"), "small", "2", 2L, 25.25, true));
  }

  @Test
  void valuesSetOperationsAndSubqueries() {
    assertThat(query("VALUES (1, 'a'), (2, 'b')").rows()).containsExactly(List.of(1, "a"), List.of(2, "b"));
    assertThat(query("SELECT 1 + 1").rows()).containsExactly(List.of(2));
    assertThat(query("SELECT id FROM customers UNION SELECT customer_id FROM orders ORDER BY 1").column(0))
        .containsExactly(10L, 20L, 30L, 40L);
    assertThat(query("SELECT id FROM customers INTERSECT SELECT customer_id FROM orders").column(0))
        .containsExactlyInAnyOrder(10L, 20L);
    assertThat(query("SELECT id FROM customers EXCEPT SELECT customer_id FROM orders").column(0))
        .containsExactly(40L);
    assertThat(query("WITH big AS (SELECT * FROM orders WHERE amount > 10)"
        + " SELECT name FROM customers WHERE id IN (SELECT customer_id FROM big)").column(0))
        .containsExactly("Ada");
    assertThat(query("SELECT name FROM customers c WHERE EXISTS"
        + " (SELECT 1 FROM orders o WHERE o.customer_id = c.id AND o.amount < 10)").column(0))
        .containsExactly("Grace");
  }

  @Test
  void countStarReadsNoColumnValues() {
    assertThat(query("SELECT COUNT(*) FROM orders").rows()).containsExactly(List.of(4L));
    assertThat(query("SELECT COUNT(*) FROM orders WHERE status = 'new'").rows()).containsExactly(List.of(2L));
  }

  @Test
  void selfJoinDuplicateColumnsAndDistinctAggregates() {
    assertThat(query("SELECT a.id, b.id FROM orders a JOIN orders b ON a.customer_id = b.customer_id"
        + " AND a.id < b.id").rows()).containsExactly(List.of(1L, 2L));
    Result duplicated = query("SELECT id, id AS again FROM customers WHERE id = 10");
    assertThat(duplicated.schema().getFields()).extracting(Field::getName).containsExactly("id", "again");
    assertThat(duplicated.rows()).containsExactly(List.of(10L, 10L));
    assertThat(query("SELECT COUNT(DISTINCT customer_id), COUNT(DISTINCT status) FROM orders").rows())
        .containsExactly(List.of(3L, 2L));
  }

  @Test
  void textOutsideLatin1WorksInLiteralsAndResults() {
    assertThat(query("SELECT name || ' 日本' FROM customers WHERE name = 'Ada'").rows())
        .containsExactly(List.of("Ada 日本"));
    assertThat(query("SELECT COUNT(*) FROM customers WHERE UPPER(name) <> 'ÉDSGER'").rows())
        .containsExactly(List.of(3L));
  }

  @Test
  void windowFunctionsRun() {
    Result result = query("SELECT id, ROW_NUMBER() OVER (PARTITION BY customer_id ORDER BY id) AS rn"
        + " FROM orders ORDER BY id");
    assertThat(result.rows()).containsExactly(List.of(1L, 1L), List.of(2L, 2L), List.of(3L, 1L), List.of(4L, 1L));
  }
}
