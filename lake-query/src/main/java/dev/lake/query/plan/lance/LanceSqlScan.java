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
 * table. Its input is the subtree itself, kept as the fallback that Calcite runs instead if
 * Lance rejects the statement; EXPLAIN shows the statement and what was pushed, not the fallback. Logical
 * (Convention.NONE); {@link EnumerableLanceSqlScan#RULE} implements it.
 */
public final class LanceSqlScan extends SingleRel {
  private final PushedStatement statement;

  LanceSqlScan(RelOptCluster cluster, RelTraitSet traits, RelNode subtree, PushedStatement statement) {
    super(cluster, traits, subtree);
    this.statement = Objects.requireNonNull(statement, "statement");
  }

  public static LanceSqlScan of(RelNode subtree, PushedStatement statement) {
    return new LanceSqlScan(subtree.getCluster(), subtree.getCluster().traitSetOf(Convention.NONE), subtree, statement);
  }

  public PushedStatement statement() {
    return statement;
  }

  @Override
  public RelNode copy(RelTraitSet traits, List<RelNode> inputs) {
    return new LanceSqlScan(getCluster(), traits, sole(inputs), statement);
  }

  /** The statement's terms and the fallback (EXPLAIN hides the fallback: {@link dev.lake.query.plan.PushedDownPlan}). */
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
