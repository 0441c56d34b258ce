package dev.lake.query.plan.vector;

import dev.lake.query.plan.lance.LanceTable;
import dev.lake.query.plan.types.RowShape;
import dev.lake.query.plan.types.ShapedInput;
import dev.lake.query.vector.VectorPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.type.RelDataType;

/**
 * The executable {@link VectorJoin}: Calcite's generated code enumerates the build sides (its inputs) and hands them
 * to a stashed {@link VectorJoinCall}, which hashes them and runs the probe pipeline in the vectorized executor.
 */
public final class EnumerableVectorJoin extends VectorJoinNode implements EnumerableRel {
  /** Implements a logical {@link VectorJoin}; its build sides are planned like any other subtree. */
  public static final ConverterRule RULE = ConverterRule.Config.INSTANCE
      .withConversion(VectorJoin.class, Convention.NONE, EnumerableConvention.INSTANCE, "EnumerableVectorJoinRule")
      .withRuleFactory(Rule::new)
      .toRule(ConverterRule.class);

  EnumerableVectorJoin(RelOptCluster cluster, RelTraitSet traits, List<RelNode> builds, RelDataType rowType,
      LanceTable table, VectorPlan plan, String why, double rowCount, String subtree) {
    super(cluster, traits, builds, rowType, table, plan, why, rowCount, subtree);
  }

  @Override
  public RelNode copy(RelTraitSet traits, List<RelNode> inputs) {
    return new EnumerableVectorJoin(getCluster(), traits, inputs, rowType, table, plan, why, rowCount, subtree);
  }

  @Override
  public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    BlockBuilder body = new BlockBuilder();
    List<Expression> buildRows = new ArrayList<>();
    List<RowShape> buildShapes = new ArrayList<>();
    List<Optional<BuildScan>> buildScans = new ArrayList<>();
    for (int i = 0; i < builds.size(); i++) {
      RelNode build = builds.get(i);
      Optional<BuildScan> scan = BuildScan.of(build);
      buildScans.add(scan);
      if (scan.isPresent()) {
        // Read as Arrow batches by the call: no rows are generated for it.
        buildRows.add(Expressions.constant(null, Enumerable.class));
        buildShapes.add(RowShape.ARRAY);
        continue;
      }
      Result result = implementor.visitChild(this, i, (EnumerableRel) build, pref);
      ShapedInput rows = ShapedInput.of(implementor, build.getRowType(), result, body, "build" + i);
      buildRows.add(rows.rows());
      buildShapes.add(rows.shape());
    }
    PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(), JavaRowFormat.ARRAY);
    RowShape shape = ShapedInput.shapeOf(physType.getFormat());
    Expression call = implementor.stash(
        new VectorJoinCall(table.reference().key(), plan, buildShapes, buildScans, shape),
        VectorJoinCall.class);
    body.add(Expressions.return_(null, Expressions.call(call, "rows", DataContext.ROOT,
        Expressions.newArrayInit(Enumerable.class, buildRows))));
    return implementor.result(physType, body.toBlock());
  }

  private static final class Rule extends ConverterRule {
    Rule(Config config) {
      super(config);
    }

    @Override
    public RelNode convert(RelNode rel) {
      VectorJoin join = (VectorJoin) rel;
      List<RelNode> builds = new ArrayList<>();
      for (RelNode build : join.getInputs()) {
        builds.add(convert(build, build.getTraitSet().replace(EnumerableConvention.INSTANCE)));
      }
      return new EnumerableVectorJoin(join.getCluster(), join.getTraitSet().replace(EnumerableConvention.INSTANCE),
          builds, join.getRowType(), join.table(), join.plan(), join.why(), join.rowCount(), join.subtree());
    }
  }
}
