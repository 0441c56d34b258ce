package dev.lake.query.plan;

import dev.lake.query.plan.lance.LanceTableScan;
import dev.lake.query.plan.lance.PushedStatement;
import dev.lake.query.plan.vector.EnumerableVectorJoin;
import java.util.Objects;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.rel.RelNode;

/**
 * An optimized statement and the {@link Engine} that runs it: one Lance scan whose batches pass through unchanged;
 * one subtree run whole by Lance's SQL engine (Calcite runs its fall-back plan if Lance rejects it) or by the
 * vectorized executor, its batches streamed; or an Enumerable plan that Calcite runs row by row, possibly over
 * pushed-down subtrees.
 */
public record StatementPlan(Engine engine) {
  public StatementPlan {
    Objects.requireNonNull(engine, "engine");
  }

  static StatementPlan passThrough(LanceTableScan scan) {
    return new StatementPlan(new Engine.PassThroughScan(scan));
  }

  static StatementPlan enumerable(EnumerableRel rel) {
    return new StatementPlan(Engine.of(rel));
  }

  /** The engine's name, for logs: pass-through, lance-sql, vectorized, join-vectorized or calcite. */
  public String path() {
    return engine.name();
  }

  /** The plan as text for EXPLAIN: the path taken, then the operator tree. */
  public String explain() {
    RelNode rel = engine.root();
    String header;
    if (engine instanceof Engine.PassThroughScan) {
      LanceTableScan scan = ((Engine.PassThroughScan) engine).scan();
      header = "pass-through: Lance streams the stored batches of table " + scan.lanceTable().name()
          + " version " + scan.lanceTable().pin().version() + " unchanged (projection, filter and limit pushed"
          + " into the scan)";
    } else if (engine instanceof Engine.Vectorized) {
      PushedStatement sql = ((Engine.Vectorized) engine).statement();
      header = "vectorized: lake's vectorized operators run the whole statement on table " + sql.table().name()
          + " version " + sql.table().pin().version() + " (pushed: " + String.join(", ", sql.pushed())
          + "; why: " + sql.why() + ")";
    } else if (engine instanceof Engine.LanceSql) {
      PushedStatement sql = ((Engine.LanceSql) engine).statement();
      header = "lance-sql: the whole statement runs in Lance's SQL engine on table " + sql.table().name()
          + " version " + sql.table().pin().version() + " and its Arrow batches stream out (pushed: "
          + String.join(", ", sql.pushed()) + ")";
    } else if (Engine.Enumerable.vectorJoin(rel) != null) {
      EnumerableVectorJoin join = Engine.Enumerable.vectorJoin(rel);
      header = "join-vectorized: lake's vectorized operators scan table " + join.table().name() + " version "
          + join.table().pin().version() + " and probe hash tables of the other join inputs, which Calcite's"
          + " Enumerable runtime (or a pushed-down subtree) computes first; the rest runs in Calcite's runtime";
    } else {
      header = "calcite: Calcite's Enumerable runtime computes the rows (LanceSqlScan subtrees run in Lance's SQL"
          + " engine, Lance scans below it get their projections and filters pushed)";
    }
    return header + "\n" + PushedDownPlan.text(rel);
  }
}
