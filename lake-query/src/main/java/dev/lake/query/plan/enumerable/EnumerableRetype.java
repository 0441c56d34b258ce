package dev.lake.query.plan.enumerable;

import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;

/**
 * Its input's rows unchanged under another row type whose columns are held alike at run time: TIME(p > 3) and
 * BIGINT (both a long of micro- or nanoseconds, {@link ExactRuntime}). Calcite's generated code reads a TIME operand
 * of a function as an int whatever its precision, so expressions over such columns are computed on their BIGINT view.
 * Costs nothing: the input's code is reused as is.
 */
final class EnumerableRetype extends SingleRel implements EnumerableRel {
  EnumerableRetype(RelNode input, RelDataType rowType) {
    super(input.getCluster(), input.getTraitSet(), input);
    this.rowType = rowType;
  }

  @Override
  protected RelDataType deriveRowType() {
    return rowType;
  }

  @Override
  public RelNode copy(RelTraitSet traits, List<RelNode> inputs) {
    return new EnumerableRetype(sole(inputs), rowType);
  }

  @Override
  public RelWriter explainTerms(RelWriter pw) {
    return super.explainTerms(pw).item("type", rowType.getFullTypeString());
  }

  @Override
  public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
    return planner.getCostFactory().makeTinyCost();
  }

  @Override
  public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    Result input = implementor.visitChild(this, 0, (EnumerableRel) getInput(), pref);
    PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), rowType, input.physType.getFormat());
    return implementor.result(physType, input.block);
  }
}
