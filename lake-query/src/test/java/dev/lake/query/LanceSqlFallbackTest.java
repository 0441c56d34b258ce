package dev.lake.query;

import dev.lake.query.model.PushdownStats;
import static dev.lake.query.Rows.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.engine.InvalidExpressionException;
import dev.lake.engine.TableEngine;
import dev.lake.engine.TableSnapshot;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/**
 * If Lance's SQL engine rejects a pushed-down statement, Calcite runs that subtree instead: the query answers as the
 * old path did, and the fallback is counted.
 */
class LanceSqlFallbackTest extends LakeTestSupport {
  private static final Schema ITEMS = new Schema(List.of(
      Field.notNullable("id", new ArrowType.Int(64, true)),
      Field.nullable("grp", ArrowType.Utf8.INSTANCE),
      Field.nullable("price", new ArrowType.Decimal(15, 2, 128))));

  private final AtomicInteger rejected = new AtomicInteger();
  private QueryService rejecting;

  @Override
  void createTables() {
    List<List<Object>> rows = new ArrayList<>();
    for (long id = 0; id < 20; id++) {
      rows.add(row(id, "g" + id % 3, BigDecimal.valueOf(id * 101, 2)));
    }
    createTable("items", ITEMS, rows);
    rejecting = new QueryService(catalog, rejectingSql(engine),
        QueryOptions.defaults().withExecutor(dev.lake.query.plan.SubtreeExecutor.LANCE_SQL));
  }

  @Test
  void rejectedWholeStatementIsAnsweredByCalcite() {
    String sql = "SELECT grp, SUM(price) AS total, COUNT(*) AS n FROM items WHERE id > 2 GROUP BY grp ORDER BY grp";
    assertThat(explain(rejecting, sql)).startsWith("lance-sql");
    Result expected = query(sql);
    int before = rejected.get();
    PushdownStats stats = rejecting.pushdownStats();

    Result answered = collect(rejecting.execute(sql, rejecting.prepare(sql).pins(), List.of(), allocator));

    assertThat(rejected.get()).as("Lance was asked").isEqualTo(before + 1);
    assertThat(answered.schema()).isEqualTo(expected.schema());
    assertThat(answered.rows()).isEqualTo(expected.rows()).hasSize(3);
    assertThat(rejecting.pushdownStats()).isEqualTo(new PushdownStats(stats.statements(), stats.wholeStatements(),
        stats.fallbacks() + 1));
  }

  @Test
  void rejectedSubtreeUnderAJoinIsAnsweredByCalcite() {
    String sql = "SELECT i.id, g.total FROM items i JOIN (SELECT grp, SUM(price) AS total FROM items GROUP BY grp) g"
        + " ON i.grp = g.grp WHERE i.id < 4 ORDER BY i.id";
    assertThat(explain(rejecting, sql)).startsWith("calcite").contains("LanceSqlScan");
    Result expected = query(sql);
    PushdownStats before = rejecting.pushdownStats();

    Result answered = collect(rejecting.execute(sql, rejecting.prepare(sql).pins(), List.of(), allocator));

    assertThat(answered.rows()).isEqualTo(expected.rows()).hasSize(4);
    assertThat(rejecting.pushdownStats().fallbacks()).isEqualTo(before.fallbacks() + 1);
    assertThat(rejecting.pushdownStats().statements()).isEqualTo(before.statements());
  }


  /** {@code engine} whose snapshots reject every SQL statement like Lance rejects one it cannot plan. */
  private TableEngine rejectingSql(TableEngine engine) {
    return proxy(TableEngine.class, engine, (method, args) -> {
      Object result = method.invoke(engine, args);
      if (!method.getName().equals("open")) {
        return result;
      }
      TableSnapshot snapshot = (TableSnapshot) result;
      return proxy(TableSnapshot.class, snapshot, (inner, innerArgs) -> {
        if (inner.getName().equals("sql")) {
          rejected.incrementAndGet();
          throw new InvalidExpressionException("SQL on version 1 failed: Error during planning: injected", null);
        }
        return inner.invoke(snapshot, innerArgs);
      });
    });
  }

  @FunctionalInterface
  private interface Handler {
    Object handle(java.lang.reflect.Method method, Object[] args) throws Exception;
  }

  private static <T> T proxy(Class<T> type, T target, Handler handler) {
    return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (self, method, args) -> {
      try {
        return handler.handle(method, args);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
    }));
  }
}
