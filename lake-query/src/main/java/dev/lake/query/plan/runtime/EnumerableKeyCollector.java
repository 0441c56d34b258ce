package dev.lake.query.plan.runtime;

import dev.lake.query.plan.types.ShapedInput;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

/**
 * The build side of a hash join, passing its rows through while recording join key {@link #key()} into runtime-key
 * slot {@link #slot()}, for a Lance scan on the probe side to filter by ({@link RuntimeFilterPlanner}).
 */
public final class EnumerableKeyCollector extends SingleRel implements EnumerableRel {
  private final int slot;
  private final int key;

  EnumerableKeyCollector(RelNode input, int slot, int key) {
    super(input.getCluster(), input.getTraitSet(), input);
    this.slot = slot;
    this.key = key;
  }

  public int slot() {
    return slot;
  }

  public int key() {
    return key;
  }

  @Override
  public RelNode copy(RelTraitSet traits, List<RelNode> inputs) {
    return new EnumerableKeyCollector(sole(inputs), slot, key);
  }

  @Override
  public RelWriter explainTerms(RelWriter pw) {
    return super.explainTerms(pw).item("slot", slot).item("key", key);
  }

  @Override
  public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
    return planner.getCostFactory().makeTinyCost();
  }

  @Override
  public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    Result input = implementor.visitChild(this, 0, (EnumerableRel) getInput(), pref);
    BlockBuilder builder = new BlockBuilder();
    ShapedInput built = ShapedInput.of(implementor, getRowType(), input, builder, "built");
    Expression call = implementor.stash(new KeyCollectorCall(slot, key, built.shape()), KeyCollectorCall.class);
    builder.add(Expressions.return_(null, Expressions.call(call, "collect", DataContext.ROOT, built.rows())));
    return implementor.result(built.physType(), builder.toBlock());
  }
}
