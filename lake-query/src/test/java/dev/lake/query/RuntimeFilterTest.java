package dev.lake.query;

import static dev.lake.query.Rows.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.engine.TableEngine;
import dev.lake.engine.TableSnapshot;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/**
 * Runtime filters: a hash join whose build side is small passes its keys down to the Lance scan of the probe side,
 * which then scans only rows that can join — with exactly the answer of the unfiltered join, also when the build side
 * has too many keys to pass on.
 */
class RuntimeFilterTest extends LakeTestSupport {
  private static final ArrowType BIGINT = new ArrowType.Int(64, true);
  private static final int FACTS = 20_000;
  private static final int DIMENSIONS = 12_000;

  private final List<String> scanFilters = new CopyOnWriteArrayList<>();
  private QueryService observed;

  @Override
  void createTables() {
    List<List<Object>> facts = new ArrayList<>();
    for (long id = 0; id < FACTS; id++) {
      facts.add(row(id, id % DIMENSIONS, id * 3));
    }
    createTable("facts", new Schema(List.of(Field.notNullable("id", BIGINT), Field.notNullable("dim", BIGINT),
        Field.notNullable("amount", BIGINT))), facts);
    List<List<Object>> dimensions = new ArrayList<>();
    for (long id = 0; id < DIMENSIONS; id++) {
      dimensions.add(row(id, id % 100 == 7 ? "wanted" : "other-" + id % 13));
    }
    createTable("dims", new Schema(List.of(Field.notNullable("id", BIGINT),
        Field.notNullable("label", ArrowType.Utf8.INSTANCE))), dimensions);
    // Without the column cache: these tests pin the IN lists given to Lance's scans
    observed = new QueryService(catalog, recordingScanFilters(engine), QueryOptions.defaults(),
        new dev.lake.query.vector.VectorRuntime(2, dev.lake.query.vector.VectorRuntime.DEFAULT_SPLIT_ROWS));
  }

  @Test
  void smallBuildSideFiltersTheProbeScan() {
    String sql = "SELECT f.id, f.amount FROM facts f JOIN dims d ON f.dim = d.id WHERE d.label = 'wanted'";
    String plan = explain(sql);
    assertThat(plan).contains("runtimeFilters=[[RuntimeFilter[slot=0, column=dim, maxKeys=1000]]]")
        .contains("EnumerableKeyCollector(slot=[0]");

    Result answered = run(sql);

    List<List<Object>> expected = new ArrayList<>();
    for (long id = 0; id < FACTS; id++) {
      if (id % DIMENSIONS % 100 == 7) {
        expected.add(List.of(id, id * 3));
      }
    }
    assertThat(answered.rows()).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(scanFilters).anySatisfy(filter -> assertThat(filter).contains("`dim` IN (7, 107, 207"));
  }

  @Test
  void runtimeFiltersOverCachedColumnsKeepEveryMatchingRow() {
    String sql = "SELECT f.id, f.amount FROM facts f JOIN dims d ON f.dim = d.id WHERE d.label = 'wanted'";
    List<List<Object>> expected = new ArrayList<>();
    for (long id = 0; id < FACTS; id++) {
      if (id % DIMENSIONS % 100 == 7) {
        expected.add(List.of(id, id * 3));
      }
    }
    // the test's own service reads through a column cache: the probe scan tests its IN set over cached columns
    dev.lake.query.vector.ColumnCache.Stats before = service.columnCacheStats();
    for (int run = 0; run < 2; run++) {
      assertThat(query(sql).rows()).containsExactlyInAnyOrderElementsOf(expected);
    }
    assertThat(service.columnCacheStats().hits()).as("the scans read cached columns")
        .isGreaterThan(before.hits());
  }

  @Test
  void buildSideWithTooManyKeysFiltersNothingAndAnswersTheSame() {
    String sql = "SELECT COUNT(*) FROM facts f JOIN dims d ON f.dim = d.id WHERE d.label <> 'wanted'";
    Result answered = run(sql);
    long expected = 0;
    for (long id = 0; id < FACTS; id++) {
      if (id % DIMENSIONS % 100 != 7) {
        expected++;
      }
    }
    assertThat(answered.rows()).containsExactly(List.of(expected));
    assertThat(scanFilters).noneSatisfy(filter -> assertThat(filter).contains(" IN ("));
  }

  private Result run(String sql) {
    scanFilters.clear();
    return collect(observed.execute(sql, observed.prepare(sql).pins(), List.of(), allocator));
  }

  private String explain(String sql) {
    Result plan = run("EXPLAIN PLAN FOR " + sql);
    return String.join("\n", plan.column(0).stream().map(String::valueOf).toList());
  }

  /** {@code engine} whose snapshots record the filter of every scan. */
  private TableEngine recordingScanFilters(TableEngine engine) {
    return (TableEngine) Proxy.newProxyInstance(TableEngine.class.getClassLoader(), new Class<?>[] {TableEngine.class},
        (self, method, args) -> {
          Object result = invoke(method, engine, args);
          if (!method.getName().equals("open")) {
            return result;
          }
          TableSnapshot snapshot = (TableSnapshot) result;
          return Proxy.newProxyInstance(TableSnapshot.class.getClassLoader(), new Class<?>[] {TableSnapshot.class},
              (inner, innerMethod, innerArgs) -> {
                if (innerMethod.getName().equals("scan")) {
                  ((Optional<?>) innerArgs[1]).ifPresent(filter -> scanFilters.add(filter.toString()));
                }
                return invoke(innerMethod, snapshot, innerArgs);
              });
        });
  }

  private static Object invoke(java.lang.reflect.Method method, Object target, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
