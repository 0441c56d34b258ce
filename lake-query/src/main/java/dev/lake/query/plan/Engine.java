package dev.lake.query.plan;

import dev.lake.query.plan.lance.EnumerablePushedSubtree;
import dev.lake.query.plan.lance.LanceTableScan;
import dev.lake.query.plan.lance.PushedStatement;
import dev.lake.query.plan.lance.SubtreeEngine;
import dev.lake.query.plan.vector.EnumerableVectorJoin;
import dev.lake.query.vector.VectorPlan;
import java.util.Objects;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.rel.RelNode;

/** What runs a whole planned statement: the result of {@link EngineChoice} for its root. */
public sealed interface Engine
    permits Engine.PassThroughScan, Engine.LanceSql, Engine.Vectorized, Engine.Enumerable {
  /** The optimized plan's root. */
  RelNode root();

  /** The name logs and EXPLAIN show: pass-through, lance-sql, vectorized, join-vectorized or calcite. */
  String name();

  /** The statement is one scan of stored columns (filter and limit pushed): Lance's batches pass through unchanged. */
  record PassThroughScan(LanceTableScan scan) implements Engine {
    public PassThroughScan {
      Objects.requireNonNull(scan, "scan");
    }

    @Override
    public RelNode root() {
      return scan;
    }

    @Override
    public String name() {
      return "pass-through";
    }
  }

  /**
   * The statement is one single-table subtree run whole by Lance's SQL engine, its batches streamed; the node's input
   * is Calcite's plan of it, the run-time fall-back if Lance rejects the statement.
   */
  record LanceSql(EnumerablePushedSubtree pushed) implements Engine {
    public LanceSql {
      Objects.requireNonNull(pushed, "pushed");
    }

    public PushedStatement statement() {
      return pushed.statement();
    }

    @Override
    public RelNode root() {
      return pushed;
    }

    @Override
    public String name() {
      return "lance-sql";
    }
  }

  /** The statement is one single-table subtree run whole by lake's vectorized executor. */
  record Vectorized(EnumerablePushedSubtree pushed, VectorPlan plan) implements Engine {
    public Vectorized {
      Objects.requireNonNull(pushed, "pushed");
      Objects.requireNonNull(plan, "plan");
    }

    public PushedStatement statement() {
      return pushed.statement();
    }

    @Override
    public RelNode root() {
      return pushed;
    }

    @Override
    public String name() {
      return "vectorized";
    }
  }

  /**
   * Calcite's Enumerable runtime runs the plan, possibly over pushed-down subtrees, vectorized joins and scans that
   * read the column cache.
   */
  record Enumerable(EnumerableRel plan) implements Engine {
    public Enumerable {
      Objects.requireNonNull(plan, "plan");
    }

    @Override
    public RelNode root() {
      return plan;
    }

    @Override
    public String name() {
      return vectorJoin(plan) != null ? "join-vectorized" : "calcite";
    }

    /** The first vectorized join in {@code rel}'s tree, or null. */
    static EnumerableVectorJoin vectorJoin(RelNode rel) {
      if (rel instanceof EnumerableVectorJoin) {
        return (EnumerableVectorJoin) rel;
      }
      for (RelNode input : rel.getInputs()) {
        EnumerableVectorJoin found = vectorJoin(input);
        if (found != null) {
          return found;
        }
      }
      return null;
    }
  }

  /** The engine of an optimized Enumerable plan: a whole pushed-down subtree is Lance SQL or vectorized. */
  static Engine of(EnumerableRel rel) {
    if (rel instanceof EnumerablePushedSubtree) {
      EnumerablePushedSubtree pushed = (EnumerablePushedSubtree) rel;
      SubtreeEngine engine = pushed.statement().engine();
      return engine instanceof SubtreeEngine.Vectorized
          ? new Vectorized(pushed, ((SubtreeEngine.Vectorized) engine).plan()) : new LanceSql(pushed);
    }
    return new Enumerable(rel);
  }
}
