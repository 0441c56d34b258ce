package dev.lake.query.plan.lance;

import dev.lake.query.vector.VectorPlan;
import java.util.Objects;

/** The engine that runs a pushed-down single-table subtree ({@link PushedStatement}); the planner's choice. */
public sealed interface SubtreeEngine permits SubtreeEngine.LanceSql, SubtreeEngine.Vectorized {
  /** The name EXPLAIN and the logs show: lance-sql or vectorized. */
  String name();

  /** Lance's SQL engine runs the subtree's statement; Calcite's plan of the subtree is its run-time fall-back. */
  record LanceSql() implements SubtreeEngine {
    @Override
    public String name() {
      return "lance-sql";
    }
  }

  /** lake's vectorized executor runs the compiled subtree (no run-time fall-back: it supports what it compiled). */
  record Vectorized(VectorPlan plan) implements SubtreeEngine {
    public Vectorized {
      Objects.requireNonNull(plan, "plan");
    }

    @Override
    public String name() {
      return "vectorized";
    }
  }
}
