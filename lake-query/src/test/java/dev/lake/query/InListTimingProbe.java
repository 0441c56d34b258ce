package dev.lake.query;

import dev.lake.query.sql.StatementLimits;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/**
 * Not a test: prints how long IN lists of 100, 1,000 and 10,000 values take to plan and run (by hand:
 * {@code -Dtest=InListTimingProbe -Dcap=90}, the seconds after which a size is abandoned).
 */
class InListTimingProbe extends LakeTestSupport {
  private static final Schema T = new Schema(List.of(Field.nullable("x", new ArrowType.Int(64, true))));

  @Override
  QueryOptions options() {
    return QueryOptions.defaults().withStatementLimits(StatementLimits.fromKeys(Map.of("query.max-in-list", "20000")));
  }

  @Override
  void createTables() {
    List<List<Object>> rows = new ArrayList<>();
    for (long i = 0; i < 20_000; i++) {
      rows.add(Rows.row(i % 7 == 0 ? null : i));
    }
    createTable("t", T, rows);
  }

  @Test
  void timings() throws Exception {
    query("SELECT count(*) FROM t WHERE x IN (1, 2, 3)");
    ExecutorService pool = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r);
      t.setDaemon(true);
      return t;
    });
    int cap = Integer.getInteger("cap", 120);
    for (String shape : List.of("scan", "values", "project")) {
      for (int n : new int[] {100, 1_000, 10_000}) {
        StringJoiner list = new StringJoiner(", ");
        for (int i = 0; i < n; i++) {
          list.add(Long.toString(i * 3L + 1));
        }
        String sql = switch (shape) {
          case "scan" -> "SELECT count(*) FROM t WHERE x IN (" + list + ")";
          case "values" -> "SELECT count(*) FROM (VALUES (1), (4), (5)) v(x) WHERE x NOT IN (" + list + ")";
          default -> "SELECT sum(CASE WHEN x IN (" + list + ") THEN 1 ELSE 0 END) FROM t";
        };
        long start = System.nanoTime();
        Future<Object> f = pool.submit(() -> query(sql).rows());
        String outcome;
        try {
          outcome = String.valueOf(f.get(cap, TimeUnit.SECONDS));
        } catch (java.util.concurrent.TimeoutException e) {
          outcome = "still running after " + cap + " s";
          System.out.println("INLIST " + shape + " n=" + n + " " + outcome);
          return;
        } catch (java.util.concurrent.ExecutionException e) {
          outcome = "failed: " + e.getCause();
        }
        System.out.printf("INLIST %s n=%d %.2f s %s%n", shape, n, (System.nanoTime() - start) / 1e9,
            outcome.length() > 80 ? outcome.substring(0, 80) : outcome);
      }
    }
  }
}
