package dev.lake.query;

import dev.lake.engine.IndexKind;
import dev.lake.engine.IndexSpec;
import dev.lake.registry.TableRegistration;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/**
 * Not a test: prints the time of one point query through {@link QueryService} (no Flight), prepared once and executed
 * with new key values, without and with scalar indexes (by hand: {@code -Dtest=PointQueryProbe -Drows=150000}).
 */
class PointQueryProbe extends LakeTestSupport {
  private static final String[] PRIORITIES = {"1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECIFIED", "5-LOW"};
  private static final Schema T = new Schema(List.of(
      Field.notNullable("k", new ArrowType.Int(64, true)),
      Field.notNullable("p", ArrowType.Utf8.INSTANCE),
      Field.nullable("amount", new ArrowType.Decimal(15, 2, 128)),
      Field.nullable("day", new ArrowType.Date(DateUnit.DAY)),
      Field.nullable("comment", ArrowType.Utf8.INSTANCE)));
  private TableRegistration table;
  private int rows;

  @Override
  void createTables() {
    rows = Integer.getInteger("rows", 150_000);
    List<List<Object>> data = new ArrayList<>();
    Random random = new Random(1);
    for (int i = 0; i < rows; i++) {
      data.add(Rows.row(4L * i + 1, PRIORITIES[random.nextInt(5)], BigDecimal.valueOf(random.nextInt(1_000_000), 2),
          LocalDate.of(1995, 1, 1).plusDays(random.nextInt(2000)), "comment " + random.nextInt()));
    }
    table = createTable("t", T, data);
  }

  @Test
  void timings() {
    measure("no index");
    long v = engine.createIndex(table.location(), table.version(), new IndexSpec("k_idx", "k", IndexKind.BTREE));
    v = engine.createIndex(table.location(), v, new IndexSpec("p_idx", "p", IndexKind.BITMAP));
    catalog.put(table.withVersion(v, table.schema(), 1, Instant.now()));
    measure("BTREE k, BITMAP p");
  }

  private void measure(String label) {
    Random random = new Random(2);
    int n = Integer.getInteger("n", 200);
    for (String sql : List.of("SELECT * FROM t WHERE k = ?", "SELECT * FROM t WHERE p = ? LIMIT 10")) {
      boolean byKey = sql.contains("k = ?");
      PreparedQuery prepared = service.prepare(sql);
      for (int round = 0; round < 2; round++) {
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
          Object value = byKey ? (Object) (4L * random.nextInt(rows) + 1) : PRIORITIES[random.nextInt(5)];
          Result result = execute(sql, prepared.pins(), List.of(value));
          if (result.rows().size() != (byKey ? 1 : 10)) {
            throw new IllegalStateException(sql + " " + value + " answered " + result.rows().size());
          }
        }
        System.out.printf("[probe] %s | %s | round %d: %.2f ms per query%n", label, sql, round,
            (System.nanoTime() - start) / 1e6 / n);
      }
    }
  }
}
