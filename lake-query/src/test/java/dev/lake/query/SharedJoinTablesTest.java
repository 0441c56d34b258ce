package dev.lake.query;

import static dev.lake.query.Rows.row;
import static org.assertj.core.api.Assertions.assertThat;

import org.lance.Dataset;
import dev.lake.query.plan.SubtreeExecutor;
import dev.lake.query.vector.ColumnCache;
import dev.lake.query.vector.VectorRuntime;
import dev.lake.registry.TableRegistration;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/**
 * A vectorized join's build side that is a plain scan is hashed once and its table shared by later executions that
 * build the same rows (same fragments, columns, condition and keys), under the column cache's budget: answers equal
 * those of a service without a cache (every execution builds its own) across statements sharing a build side, build
 * conditions that differ by a literal, and new versions of the build table (an append, a delete), which never see a
 * table of an older version's rows.
 */
class SharedJoinTablesTest extends LakeTestSupport {
  private static final Schema FACT = new Schema(List.of(
      Field.notNullable("id", new ArrowType.Int(64, true)),
      Field.nullable("k", new ArrowType.Int(32, true)),
      Field.notNullable("amount", new ArrowType.Decimal(12, 2, 128))));
  private static final Schema DIM = new Schema(List.of(
      Field.nullable("k", new ArrowType.Int(32, true)),
      Field.notNullable("name", ArrowType.Utf8.INSTANCE),
      Field.notNullable("w", new ArrowType.Int(32, true))));
  private static final int KEYS = 400;

  @Override
  QueryOptions options() {
    return QueryOptions.defaults().withExecutor(SubtreeExecutor.AUTO).withBatchSize(1_000);
  }

  private QueryService serviceWith(ColumnCache cache) {
    return new QueryService(catalog, engine, options(), new VectorRuntime(2, 8_192, cache));
  }

  private List<List<Object>> run(QueryService on, String sql) {
    List<List<Object>> rows = new ArrayList<>(collect(on.execute(sql, on.prepare(sql).pins(), List.of(), allocator))
        .rows());
    rows.sort(Comparator.comparing(r -> r.stream().map(Objects::toString).toList().toString()));
    return rows;
  }

  private static List<List<Object>> dimRows(int from, int to) {
    List<List<Object>> rows = new ArrayList<>();
    for (int k = from; k < to; k++) {
      rows.add(row(k % 97 == 0 ? null : k, "n" + (k % 7), k % 10));
      if (k % 5 == 0) {
        rows.add(row(k, "dup" + (k % 3), k % 10));
      }
    }
    return rows;
  }

  @Test
  void joinTablesOfPlainScansAreSharedAcrossExecutionsAndVersions() throws Exception {
    Random random = new Random(3);
    TableRegistration fact = null;
    for (int f = 0; f < 2; f++) {
      List<List<Object>> rows = new ArrayList<>();
      for (int i = 0; i < 5_000; i++) {
        rows.add(row((long) f * 5_000 + i, random.nextInt(12) == 0 ? null : random.nextInt(KEYS + 50),
            BigDecimal.valueOf(random.nextInt(100_000), 2)));
      }
      fact = fact == null ? createTable("fact", FACT, rows) : appendRows(fact, FACT, rows);
    }
    TableRegistration dim = createTable("dim", DIM, dimRows(0, KEYS / 2));
    dim = appendRows(dim, DIM, dimRows(KEYS / 2, KEYS));
    List<String> statements = new ArrayList<>();
    for (int w : new int[] {3, 7}) {
      statements.add("SELECT d.name, COUNT(*) AS n, SUM(f.amount) AS total FROM fact f JOIN dim d ON f.k = d.k"
          + " WHERE d.w < " + w + " GROUP BY d.name");
      statements.add("SELECT COUNT(*) AS n, MIN(f.id) AS lo FROM fact f JOIN dim d ON f.k = d.k WHERE d.w < " + w);
    }
    ColumnCache cache = new ColumnCache(256L << 20);
    try (QueryService uncached = serviceWith(new ColumnCache(0)); QueryService cached = serviceWith(cache)) {
      for (int round = 0; round < 3; round++) {
        for (String sql : statements) {
          assertThat(run(cached, sql)).as("round %d: %s", round, sql).isEqualTo(run(uncached, sql));
        }
      }
      // each statement built its table in the first round (their build columns or conditions differ), then reused it
      assertThat(cache.stats().sharedTables()).as("tables an execution found built").isEqualTo(2L * statements.size());

      // a new version of the build table: a delete in one fragment, then an append
      try (Dataset dataset = Dataset.open().allocator(allocator).uri(dim.location()).build()) {
        dataset.delete("k < 40 OR name = 'dup1'");
      }
      dim = register(dim);
      for (String sql : statements) {
        assertThat(run(cached, sql)).as("after a delete: %s", sql).isEqualTo(run(uncached, sql));
      }
      appendRows(dim, DIM, dimRows(KEYS, KEYS + 60));
      for (String sql : statements) {
        assertThat(run(cached, sql)).as("after an append: %s", sql).isEqualTo(run(uncached, sql));
        assertThat(run(cached, sql)).as("after an append, again: %s", sql).isEqualTo(run(uncached, sql));
      }
    }
  }
}
