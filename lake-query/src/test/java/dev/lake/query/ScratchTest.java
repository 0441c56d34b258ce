package dev.lake.query;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

class ScratchTest extends LakeTestSupport {
  private static final ArrowType BIGINT = new ArrowType.Int(64, true);
  private static final Schema ORDERS = new Schema(List.of(
      Field.notNullable("id", BIGINT),
      Field.notNullable("customer_id", BIGINT),
      Field.nullable("amount", new ArrowType.Decimal(15, 2, 128)),
      Field.nullable("status", ArrowType.Utf8.INSTANCE),
      Field.nullable("ordered", new ArrowType.Date(DateUnit.DAY))));

  @Override
  void createTables() {
    createTable("orders", ORDERS, List.of(
        Rows.row(1L, 10L, new BigDecimal("100.00"), "new", LocalDate.of(2024, 1, 5)),
        Rows.row(2L, 10L, new BigDecimal("50.50"), "shipped", LocalDate.of(2024, 2, 1)),
        Rows.row(4L, 30L, null, null, null)));
  }

  @Test
  void scratch() {
    for (String sql : System.getProperty("scratch.sql", "SELECT id FROM orders WHERE id = 2").split(";;")) {
      System.out.println("SQL> " + sql);
      try {
        Result plan = query("EXPLAIN PLAN FOR " + sql);
        plan.rows().forEach(r -> System.out.println("  " + r.get(0)));
        Result rows = query(sql);
        System.out.println("  schema " + rows.schema());
        rows.rows().forEach(r -> System.out.println("  " + r));
      } catch (RuntimeException e) {
        System.out.println("  FAILED " + e);
      }
    }
    System.out.println(service.pushdownStats());
  }
}
