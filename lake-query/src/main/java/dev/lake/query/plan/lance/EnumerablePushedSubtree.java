package dev.lake.query.plan.lance;

import dev.lake.query.plan.types.ColumnType;
import dev.lake.query.plan.types.RowShape;
import dev.lake.query.plan.types.ShapedInput;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.linq4j.function.Function0;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

/**
 * The executable {@link PushedSubtree}: rows come from the chosen engine through the execution's scan source — the
 * vectorized executor, or Lance's SQL engine, and if Lance rejects the statement before the first row, the run-time
 * fall-back (the same subtree compiled by Calcite, its input) runs instead. When it is the whole plan, the executor
 * streams the engine's batches directly and does not use this code.
 */
public final class EnumerablePushedSubtree extends SingleRel implements EnumerableRel {
  /** Implements a logical {@link PushedSubtree}; its fallback is planned like any other subtree. */
  public static final ConverterRule RULE = ConverterRule.Config.INSTANCE
      .withConversion(PushedSubtree.class, Convention.NONE, EnumerableConvention.INSTANCE,
          "EnumerablePushedSubtreeRule")
      .withRuleFactory(Rule::new)
      .toRule(ConverterRule.class);

  private final PushedStatement statement;

  EnumerablePushedSubtree(RelOptCluster cluster, RelTraitSet traits, RelNode fallback, PushedStatement statement) {
    super(cluster, traits, fallback);
    this.statement = statement;
  }

  public PushedStatement statement() {
    return statement;
  }

  /** The Java type of each output column, for converting Lance's values. */
  public List<ColumnType> columnTypes() {
    return ColumnType.of(getRowType().getFieldList());
  }

  @Override
  public RelNode copy(RelTraitSet traits, List<RelNode> inputs) {
    return new EnumerablePushedSubtree(getCluster(), traits, sole(inputs), statement);
  }

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

  @Override
  public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    Result fallback = implementor.visitChild(this, 0, (EnumerableRel) getInput(), pref);
    BlockBuilder fallbackBody = new BlockBuilder();
    ShapedInput fallbackRows = ShapedInput.of(implementor, getRowType(), fallback, fallbackBody, "fallback");
    PhysType physType = fallbackRows.physType();
    RowShape shape = fallbackRows.shape();
    fallbackBody.add(Expressions.return_(null, fallbackRows.rows()));
    Expression call = implementor.stash(new LanceSqlCall(statement.table().reference().key(), statement.sql(),
        columnTypes(), shape, statement.engine()), LanceSqlCall.class);
    @SuppressWarnings("unchecked") // linq4j takes a Class<F>; the literal Function0.class is the raw type
    Expression lazyFallback = Expressions.lambda(Function0.class, fallbackBody.toBlock());
    BlockBuilder body = new BlockBuilder();
    body.add(Expressions.return_(null, Expressions.call(call, "rows", DataContext.ROOT, lazyFallback)));
    return implementor.result(physType, body.toBlock());
  }

  private static final class Rule extends ConverterRule {
    Rule(Config config) {
      super(config);
    }

    @Override
    public RelNode convert(RelNode rel) {
      PushedSubtree scan = (PushedSubtree) rel;
      RelTraitSet traits = scan.getTraitSet().replace(EnumerableConvention.INSTANCE);
      RelNode fallback = convert(scan.getInput(), scan.getInput().getTraitSet().replace(EnumerableConvention.INSTANCE));
      return new EnumerablePushedSubtree(scan.getCluster(), traits, fallback, scan.statement());
    }
  }
}
