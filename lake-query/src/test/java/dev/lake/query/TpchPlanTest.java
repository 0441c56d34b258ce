package dev.lake.query;

import dev.lake.query.model.PushdownStats;
import static org.assertj.core.api.Assertions.assertThat;

import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The 22 TPC-H queries at scale factor 0.01 over real Lance tables: every one plans with hash joins (no cross
 * product, also for Q7's and Q19's OR-ed join predicates), every pushed-down statement is accepted by Lance (no
 * fallback), single-table queries run whole in Lance, and each answers as many rows as the tpch jar's reference
 * answers hold. Answers are compared value by value with DuckDB in lake-it's {@code tpchQueriesMatchDuckDb}.
 */
class TpchPlanTest extends LakeTestSupport {
  private static final double SCALE = 0.01;

  @Override
  void createTables() {
    for (TpchTable<?> table : TpchTable.getTables()) {
      createTable(table.getTableName(), TpchTestData.schema(table), TpchTestData.rows(table, SCALE));
    }
  }

  @Test
  void everyTpchQueryPlansWithoutCrossProductsAndRunsWithoutFallback() {
    List<String> problems = new ArrayList<>();
    for (int query = 1; query <= 22; query++) {
      String sql = TpchTestData.query(query);
      String plan = explain(sql);
      if (hasCrossProduct(plan)) {
        problems.add("Q" + query + " joins without a condition:\n" + plan);
      }
      PushdownStats before = service.pushdownStats();
      int rows = query(sql).rows().size();
      if (service.pushdownStats().fallbacks() != before.fallbacks()) {
        problems.add("Q" + query + ": Lance rejected a pushed-down statement");
      }
      if (rows != referenceRows(query)) {
        problems.add("Q" + query + ": " + rows + " rows, the reference answer has " + referenceRows(query));
      }
    }
    assertThat(problems).isEmpty();
  }

  @Test
  void orEdJoinPredicatesBecomeHashJoins() {
    String q19 = explain(TpchTestData.query(19));
    // An equi-join: Calcite's hash join, or (the aggregate over it) lake's vectorized join probing from lineitem.
    assertThat(q19).doesNotContain("NestedLoopJoin")
        .containsAnyOf("EnumerableHashJoin(condition=[AND(=(", "EnumerableVectorJoin(probe=[lineitem]");
    assertThat(q19).as("each side's part of the OR is pushed into its scan")
        .containsPattern("lineitem.*filter=\\[.*DELIVER IN PERSON").containsPattern("part\\]\\].*filter=\\[.*Brand#12");
    assertThat(explain(TpchTestData.query(7))).doesNotContain("NestedLoopJoin")
        .containsPattern("nation.*filter=\\[.*FRANCE.*GERMANY");
  }

  @Test
  void singleTableQueriesRunWholeVectorized() {
    for (int query : new int[] {1, 6}) {
      String plan = explain(TpchTestData.query(query));
      assertThat(plan).as("Q%d", query).startsWith("vectorized").contains("engine=[vectorized]")
          .doesNotContain("Enumerable");
    }
  }

  /** A join without a condition whose inputs may both have many rows (a single-row aggregate is fine). */
  private static boolean hasCrossProduct(String plan) {
    List<String> lines = plan.lines().toList();
    for (int i = 0; i < lines.size(); i++) {
      if (!lines.get(i).contains("condition=[true]")) {
        continue;
      }
      int indent = indent(lines.get(i));
      boolean singleRow = false;
      for (int j = i + 1; j < lines.size() && indent(lines.get(j)) > indent; j++) {
        String child = lines.get(j).strip();
        if (indent(lines.get(j)) == indent + 2 && (child.startsWith("EnumerableAggregate(group=[{}]")
            || child.startsWith("LanceSqlScan(") && child.contains("aggregate") && !child.contains("GROUP BY"))) {
          singleRow = true;
        }
      }
      if (!singleRow) {
        return true;
      }
    }
    return false;
  }

  private static int indent(String line) {
    return line.length() - line.stripLeading().length();
  }

  private String explain(String sql) {
    return String.join("\n", query("EXPLAIN PLAN FOR " + sql).column(0).stream().map(String::valueOf).toList());
  }

  /** Rows of the jar's answer to {@code query} at scale factor 0.01 (its first line describes the columns). */
  private static int referenceRows(int query) {
    try (InputStream in = TpchTable.class.getResourceAsStream("/io/trino/tpch/queries/q" + query + ".result")) {
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      return (int) text.lines().skip(1).filter(line -> !line.isBlank()).count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
