package dev.lake.query.plan;

import dev.lake.query.vector.VectorPlan;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.calcite.rel.RelWriter;

/**
 * What a pushed-down single-table subtree runs: one statement on the pinned version of a table, in Lance's SQL engine
 * or — when the planner chose it — in lake's vectorized executor. Carried unchanged from the logical
 * {@link LanceSqlScan} to the executable {@link EnumerableLanceSqlScan} and to EXPLAIN.
 *
 * @param table the table and its pinned version
 * @param sql the statement Lance runs (the table is named {@link ScanSource#SQL_TABLE})
 * @param pushed what the statement does, from the scan up: filter, project, aggregate, sort, limit
 * @param vector the subtree compiled for the vectorized executor, when the planner chose it
 * @param why why the planner chose the engine it chose
 */
public record PushedStatement(LanceTable table, String sql, List<String> pushed, Optional<VectorPlan> vector,
    String why) {
  public PushedStatement {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(sql, "sql");
    pushed = List.copyOf(pushed);
    Objects.requireNonNull(vector, "vector");
    Objects.requireNonNull(why, "why");
  }

  /** The terms every node of this statement shows in EXPLAIN. */
  RelWriter explainTerms(RelWriter pw) {
    return pw.item("table", table.name())
        .item("version", table.pin().version())
        .item("pushed", pushed)
        .item("engine", vector.isPresent() ? "vectorized" : "lance-sql")
        .item("why", why)
        .item("sql", sql);
  }
}
