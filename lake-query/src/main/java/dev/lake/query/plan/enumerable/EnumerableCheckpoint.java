package dev.lake.query.plan.enumerable;

import dev.lake.query.guard.RowCheckpoints;
import java.lang.reflect.Method;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.Types;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

/**
 * Passes its input's rows through {@link RowCheckpoints#checked}: every row polls the statement's stop flag, and
 * when the consuming operator keeps its input ({@link #retained()}) each row is charged to the query's memory budget.
 * Inserted between Calcite's operators only when a plan is compiled ({@link RuntimeChecks}); EXPLAIN never shows it.
 */
final class EnumerableCheckpoint extends SingleRel implements EnumerableRel {
  private static final Method CHECKED = Types.lookupMethod(RowCheckpoints.class, "checked", Enumerable.class,
      DataContext.class, boolean.class);
  private final boolean retained;

  EnumerableCheckpoint(RelNode input, boolean retained) {
    super(input.getCluster(), input.getTraitSet(), input);
    this.retained = retained;
  }

  boolean retained() {
    return retained;
  }

  @Override
  public RelNode copy(RelTraitSet traits, List<RelNode> inputs) {
    return new EnumerableCheckpoint(sole(inputs), retained);
  }

  @Override
  public RelWriter explainTerms(RelWriter pw) {
    return super.explainTerms(pw).item("retained", retained);
  }

  @Override
  public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
    return planner.getCostFactory().makeTinyCost();
  }

  @Override
  public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    Result input = implementor.visitChild(this, 0, (EnumerableRel) getInput(), pref);
    BlockBuilder builder = new BlockBuilder();
    Expression rows = builder.append("checked", input.block);
    builder.add(Expressions.return_(null, Expressions.call(CHECKED, rows, implementor.getRootExpression(),
        Expressions.constant(retained))));
    return implementor.result(input.physType, builder.toBlock());
  }
}
