package dev.lake.query;

import java.time.LocalTime;
import java.util.List;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

class ExactRuntimeProbeTest extends LakeTestSupport {
  @Override
  void createTables() {
    Schema schema = new Schema(List.of(Field.notNullable("id", new ArrowType.Int(64, true)),
        Field.nullable("tm", new ArrowType.Time(TimeUnit.MICROSECOND, 64))));
    createTable("t", schema, List.of(Rows.row(1L, LocalTime.of(1, 2, 3, 4_000)), Rows.row(2L, LocalTime.of(1, 2, 3, 5_000))));
  }

  @Override
  QueryOptions options() {
    return QueryOptions.defaults().withExecutor(dev.lake.query.plan.SubtreeExecutor.CALCITE);
  }

  @Test
  void probe() {
    for (String sql : List.of("SELECT MIN(tm), MAX(tm), MIN(id), COUNT(*) FROM t",
        "SELECT id, MIN(tm) OVER (PARTITION BY id) FROM t", "SELECT id, LAG(tm) OVER (ORDER BY id) FROM t")) {
      try {
        System.out.println(query("EXPLAIN PLAN FOR " + sql).rows());
        System.out.println(query(sql).rows());
      } catch (Throwable e) {
        e.printStackTrace(System.out);
      }
    }
  }
}
