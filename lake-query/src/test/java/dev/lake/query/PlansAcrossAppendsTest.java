package dev.lake.query;

import static dev.lake.query.Rows.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.engine.IndexKind;
import dev.lake.engine.IndexSpec;
import dev.lake.engine.StagedData;
import dev.lake.engine.TableChange;
import dev.lake.registry.TableRegistration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/**
 * A statement planned before an append runs on the appended version without being validated or planned again when
 * the append is small (same schema and indexes, every fragment kept, at most a tenth more rows) — and reads exactly
 * the version it is executed at: every answer equals a fresh service's. Anything else (a bigger append, an
 * overwrite, an index build, EXPLAIN) is planned again.
 */
class PlansAcrossAppendsTest extends LakeTestSupport {
  private static final Schema FACTS = new Schema(List.of(
      Field.notNullable("id", new ArrowType.Int(64, true)),
      Field.nullable("grp", new ArrowType.Int(64, true)),
      Field.nullable("amount", new ArrowType.Decimal(12, 2, 128))));
  private static final Schema DIMS = new Schema(List.of(
      Field.notNullable("grp", new ArrowType.Int(64, true)),
      Field.nullable("name", ArrowType.Utf8.INSTANCE)));

  /** A join with an aggregate, a single-table aggregate and an outer join ({@link #BY_ID}: a parameterized scan). */
  private static final List<String> STATEMENTS = List.of(
      "SELECT d.name, COUNT(*), SUM(f.amount), MAX(f.id) FROM facts f JOIN dims d ON f.grp = d.grp"
          + " GROUP BY d.name ORDER BY d.name",
      "SELECT grp, COUNT(*), SUM(amount) FROM facts GROUP BY grp ORDER BY grp",
      "SELECT f.id, d.name FROM facts f LEFT JOIN dims d ON f.grp = d.grp WHERE f.id >= 200 ORDER BY f.id");
  private static final String BY_ID = "SELECT id, grp, amount FROM facts WHERE id >= ? ORDER BY id";
  private static final String POINT = "SELECT id, grp FROM facts WHERE id = ?";

  private final Random random = new Random(20261207);
  private long nextId = 1;

  private List<List<Object>> facts(int count) {
    List<List<Object>> rows = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Long grp = random.nextInt(10) == 0 ? null : (long) random.nextInt(6);
      rows.add(row(nextId++, grp, new java.math.BigDecimal(random.nextInt(100_000)).movePointLeft(2)));
    }
    return rows;
  }

  private TableRegistration dims() {
    return createTable("dims", DIMS, List.of(row(0L, "zero"), row(1L, "one"), row(2L, "two"), row(3L, "three"),
        row(4L, "four")));
  }

  private List<List<Object>> run(QueryService queries, String sql, Object... parameters) {
    PreparedQuery prepared = queries.prepare(sql);
    return collect(queries.execute(sql, prepared.pins(), Arrays.asList(parameters), allocator)).rows();
  }

  /** Every statement's answer on {@code queries} equals a service's that never saw an earlier version. */
  private void answersEqualAFreshService(QueryService queries, long fromId) {
    QueryService fresh = new QueryService(catalog, engine, options());
    try {
      for (String sql : STATEMENTS) {
        assertThat(run(queries, sql)).as(sql).isEqualTo(run(fresh, sql)).isNotEmpty();
      }
      assertThat(run(queries, BY_ID, fromId)).as(BY_ID).isEqualTo(run(fresh, BY_ID, fromId)).isNotEmpty();
    } finally {
      fresh.close();
    }
  }

  /** Creates the two tables afresh and a service that ran every statement once; the caller closes the service. */
  private QueryService planned() {
    nextId = 1;
    createTable("facts", FACTS, facts(200));
    dims();
    QueryService queries = new QueryService(catalog, engine, options());
    for (String sql : STATEMENTS) {
      run(queries, sql);
    }
    run(queries, BY_ID, 150L);
    return queries;
  }

  private TableRegistration facts() {
    return catalog.table("facts").orElseThrow();
  }

  @Test
  void aPlanRunsOnSmallAppendsWithoutBeingPlannedAgainAndReadsTheAppendedRows() {
    try (QueryService queries = planned()) {
      TableRegistration table = facts();
      long validated = queries.planCacheStats().misses();
      assertThat(validated).isEqualTo(STATEMENTS.size() + 1);

      // two appends of 10 rows: 5% and then 10% more than the version the statements were planned over
      for (int append = 1; append <= 2; append++) {
        long firstNew = nextId;
        table = appendRows(table, FACTS, facts(10));
        answersEqualAFreshService(queries, firstNew);
        assertThat(queries.planCacheStats().misses()).as("statements validated after append " + append)
            .isEqualTo(validated);
        assertThat(queries.planCacheStats().reused()).as("executions reusing a plan after append " + append)
            .isGreaterThanOrEqualTo((long) append * (STATEMENTS.size() + 1));
      }

      // a third append takes the table past a tenth more rows than planned over: every statement is planned again
      long firstNew = nextId;
      appendRows(table, FACTS, facts(10));
      answersEqualAFreshService(queries, firstNew);
      assertThat(queries.planCacheStats().misses()).isEqualTo(validated * 2);
    }
  }

  @Test
  void anOverwriteOrAnIndexBuildIsPlannedAgainAndExplainNamesTheVersionItReads() {
    try (QueryService queries = planned()) {
      TableRegistration table = facts();
      long validated = queries.planCacheStats().misses();

      // an overwrite with as many rows: new fragments
      nextId = 1;
      StagedData staged = engine.stage(table.location(), Rows.reader(allocator, FACTS, facts(200), 1_000));
      long overwritten = engine.commit(table.location(), table.version(), new TableChange.Overwrite(staged));
      table = table.withVersion(overwritten, table.schema(), 1, Instant.now());
      catalog.put(table);
      answersEqualAFreshService(queries, 150);
      assertThat(queries.planCacheStats().misses()).as("validated after an overwrite").isEqualTo(validated * 2);

      // an index build: the same fragments and rows, but the planner may use the index
      long indexed = engine.createIndex(table.location(), table.version(),
          new IndexSpec("id_idx", "id", IndexKind.BTREE));
      table = table.withVersion(indexed, table.schema(), 1, Instant.now());
      catalog.put(table);
      answersEqualAFreshService(queries, 150);
      assertThat(queries.planCacheStats().misses()).as("validated after an index build").isEqualTo(validated * 3);
      PreparedQuery explain = queries.prepare("EXPLAIN PLAN FOR " + POINT);
      assertThat(collect(queries.execute(explain.sql(), explain.pins(), List.of(150L), allocator)).rows().toString())
          .contains("version=[" + indexed + "]").contains("id_idx");

      // a small append after the index build: EXPLAIN is planned again and names the appended version
      table = appendRows(table, FACTS, facts(5));
      PreparedQuery again = queries.prepare("EXPLAIN PLAN FOR " + POINT);
      assertThat(collect(queries.execute(again.sql(), again.pins(), List.of(150L), allocator)).rows().toString())
          .contains("version=[" + table.version() + "]");
    }
  }
}
