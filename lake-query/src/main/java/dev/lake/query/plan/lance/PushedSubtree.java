package dev.lake.query.plan.lance;

import java.util.List;
import java.util.Objects;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

/**
 * A single-table subtree pushed down whole: one statement ({@link PushedStatement}) run on the pinned version of its
 * table by the engine the planner chose for it — Lance's SQL engine or lake's vectorized executor ({@link
 * SubtreeEngine}). Its input is the subtree itself, kept as the run-time fall-back that Calcite runs instead if Lance
 * rejects the statement; EXPLAIN shows it as {@code LanceSqlScan} with the statement, the engine and what was
 * pushed, not the fall-back. Logical (Convention.NONE); {@link EnumerablePushedSubtree#RULE} implements it.
 */
public final class PushedSubtree extends SingleRel {
  private final PushedStatement statement;

  PushedSubtree(RelOptCluster cluster, RelTraitSet traits, RelNode subtree, PushedStatement statement) {
    super(cluster, traits, subtree);
    this.statement = Objects.requireNonNull(statement, "statement");
  }

  public static PushedSubtree of(RelNode subtree, PushedStatement statement) {
    return new PushedSubtree(subtree.getCluster(), subtree.getCluster().traitSetOf(Convention.NONE), subtree,
        statement);
  }

  public PushedStatement statement() {
    return statement;
  }

  @Override
  public RelNode copy(RelTraitSet traits, List<RelNode> inputs) {
    return new PushedSubtree(getCluster(), traits, sole(inputs), statement);
  }

  /** The statement's terms and the fallback (EXPLAIN hides the fallback: {@link dev.lake.query.plan.PushedDownPlan}).
   * */
  @Override
  public RelWriter explainTerms(RelWriter pw) {
    return statement.explainTerms(pw.input("fallback", getInput()));
  }

  @Override
  public double estimateRowCount(RelMetadataQuery mq) {
    return mq.getRowCount(getInput());
  }

  @Override
  public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
    return planner.getCostFactory().makeTinyCost();
  }
}
