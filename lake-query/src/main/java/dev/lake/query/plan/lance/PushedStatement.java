package dev.lake.query.plan.lance;

import java.util.List;
import java.util.Objects;
import org.apache.calcite.rel.RelWriter;

/**
 * What a pushed-down single-table subtree runs: one statement on the pinned version of a table, in Lance's SQL engine
 * or — when the planner chose it — in lake's vectorized executor. Carried unchanged from the logical
 * {@link PushedSubtree} to the executable {@link EnumerablePushedSubtree} and to EXPLAIN.
 *
 * @param table the table and its pinned version
 * @param sql the statement Lance runs (the table is named {@link ScanSource#SQL_TABLE})
 * @param pushed what the statement does, from the scan up: filter, project, aggregate, sort, limit
 * @param engine the engine the planner chose for it ({@link dev.lake.query.plan.EngineChoice})
 * @param why why the planner chose the engine it chose
 */
public record PushedStatement(LanceTable table, String sql, List<String> pushed, SubtreeEngine engine,
    String why) {
  public PushedStatement {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(sql, "sql");
    pushed = List.copyOf(pushed);
    Objects.requireNonNull(engine, "engine");
    Objects.requireNonNull(why, "why");
  }

  /** The terms every node of this statement shows in EXPLAIN. */
  public RelWriter explainTerms(RelWriter pw) {
    return pw.item("table", table.name())
        .item("version", table.pin().version())
        .item("pushed", pushed)
        .item("engine", engine.name())
        .item("why", why)
        .item("sql", sql);
  }
}
