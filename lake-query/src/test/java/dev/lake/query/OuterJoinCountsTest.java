package dev.lake.query;

import static dev.lake.query.Rows.row;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/**
 * COUNT over the null-producing side of an outer join, grouped by the preserved side (TPC-H Q13), is counted before
 * the join ({@code OuterJoinCounts}): the same answers as the join-then-count reference computed here, with duplicate
 * and NULL keys on both sides, preserved rows without matches, and NULL count arguments.
 */
class OuterJoinCountsTest extends LakeTestSupport {
  private static final Schema CUSTOMERS = new Schema(List.of(Field.nullable("id", new ArrowType.Int(64, true)),
      Field.nullable("name", ArrowType.Utf8.INSTANCE)));
  private static final Schema ORDERS = new Schema(List.of(Field.nullable("oid", new ArrowType.Int(64, true)),
      Field.nullable("cust", new ArrowType.Int(64, true)), Field.nullable("note", ArrowType.Utf8.INSTANCE)));

  private final List<Object[]> customers = new ArrayList<>();
  private final List<Object[]> orders = new ArrayList<>();

  @Override
  void createTables() {
    Random random = new Random(13);
    List<List<Object>> c = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      // ids 0..299: some twice, some NULL
      Long id = random.nextInt(12) == 0 ? null : (long) random.nextInt(300);
      Object[] values = {id, "c" + i};
      customers.add(values);
      c.add(Arrays.asList(values));
    }
    List<List<Object>> o = new ArrayList<>();
    for (int i = 0; i < 3_000; i++) {
      Long oid = random.nextInt(15) == 0 ? null : (long) i;
      Long cust = random.nextInt(20) == 0 ? null : (long) random.nextInt(400);
      String note = random.nextInt(4) == 0 ? "special x requests" : "plain";
      Object[] values = {oid, cust, note};
      orders.add(values);
      o.add(Arrays.asList(values));
    }
    createTable("customers", CUSTOMERS, c);
    createTable("orders", ORDERS, o);
  }

  /** customer id -> COUNT(oid) of its matching orders (ids grouped as SQL groups them: NULLs together). */
  private Map<Long, Long> reference(boolean skipSpecial) {
    Map<Long, Long> counts = new HashMap<>();
    for (Object[] customer : customers) {
      Long id = (Long) customer[0];
      long n = 0;
      for (Object[] order : orders) {
        if (id != null && id.equals(order[1]) && order[0] != null
            && !(skipSpecial && ((String) order[2]).contains("x"))) {
          n++;
        }
      }
      counts.merge(id, n, Long::sum);
    }
    return counts;
  }

  private static Map<Long, Long> answered(List<List<Object>> rows) {
    Map<Long, Long> answer = new HashMap<>();
    for (List<Object> r : rows) {
      assertThat(answer.put((Long) r.get(0), ((Number) r.get(1)).longValue())).as("group %s once", r.get(0)).isNull();
    }
    return answer;
  }

  private String explain(String sql) {
    return String.join("\n", query("EXPLAIN PLAN FOR " + sql).rows().stream().map(r -> String.valueOf(r.get(0)))
        .toList());
  }

  @Test
  void outerJoinCountsAreCountedBeforeTheJoin() {
    String left = "SELECT c.id, COUNT(o.oid) AS n FROM customers c LEFT JOIN orders o ON c.id = o.cust GROUP BY c.id";
    assertThat(answered(query(left).rows())).isEqualTo(reference(false));
    String plan = explain(left);
    assertThat(plan.indexOf("COUNT")).as("the orders are counted below the join: %s", plan)
        .isGreaterThan(plan.indexOf("Join"));

    String right = "SELECT c.id, COUNT(o.oid) AS n FROM orders o RIGHT JOIN customers c ON o.cust = c.id"
        + " AND o.note NOT LIKE '%x%' GROUP BY c.id";
    assertThat(answered(query(right).rows())).isEqualTo(reference(true));

    // Q13's shape: the counts grouped again
    String q13 = "SELECT n, COUNT(*) AS k FROM (SELECT c.id, COUNT(o.oid) AS n FROM customers c LEFT OUTER JOIN"
        + " orders o ON c.id = o.cust AND o.note NOT LIKE '%x%' GROUP BY c.id) t GROUP BY n";
    Map<Long, Long> histogram = new HashMap<>();
    reference(true).values().forEach(n -> histogram.merge(n, 1L, Long::sum));
    assertThat(answered(query(q13).rows())).isEqualTo(histogram);

    // COUNT(*) counts an unmatched preserved row once: not rewritten, still right
    String star = "SELECT c.id, COUNT(*) AS n FROM customers c LEFT JOIN orders o ON c.id = o.cust GROUP BY c.id";
    Map<Long, Long> stars = new HashMap<>();
    for (Object[] customer : customers) {
      long matches = customer[0] == null ? 0 : orders.stream().filter(o -> customer[0].equals(o[1])).count();
      stars.merge((Long) customer[0], Math.max(1, matches), Long::sum);
    }
    assertThat(answered(query(star).rows())).isEqualTo(stars);
  }
}
