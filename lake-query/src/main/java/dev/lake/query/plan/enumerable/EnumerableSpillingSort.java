package dev.lake.query.plan.enumerable;

import java.lang.reflect.Method;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.function.Function1;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.Types;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.Pair;

/**
 * A full ORDER BY (no OFFSET or FETCH) of Calcite's runtime that spills: Calcite's {@code EnumerableSort} with its
 * rows sorted by {@link SpillingSort} instead of in one in-memory tree (the same key and comparator code Calcite
 * generates). Put in place of {@code EnumerableSort} when a plan is compiled ({@link RuntimeChecks}); EXPLAIN shows
 * Calcite's.
 */
final class EnumerableSpillingSort extends Sort implements EnumerableRel {
  private static final Method ORDER_BY = Types.lookupMethod(SpillingSort.class, "orderBy", Enumerable.class,
      Function1.class, java.util.Comparator.class, org.apache.calcite.DataContext.class);

  EnumerableSpillingSort(RelNode input, RelCollation collation) {
    super(input.getCluster(), input.getTraitSet().replace(collation), input, collation, null, null);
  }

  @Override
  public Sort copy(RelTraitSet traits, RelNode input, RelCollation collation, RexNode offset, RexNode fetch) {
    return new EnumerableSpillingSort(input, collation);
  }

  @Override
  public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    BlockBuilder builder = new BlockBuilder();
    Result result = implementor.visitChild(this, 0, (EnumerableRel) getInput(), pref);
    PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(), result.format);
    Expression child = builder.append("child", result.block);
    Pair<Expression, Expression> key = result.physType.generateCollationKey(collation.getFieldCollations());
    Expression comparator = key.right == null ? Expressions.constant(null, java.util.Comparator.class)
        : builder.append("comparator", key.right);
    builder.add(Expressions.return_(null, Expressions.call(ORDER_BY, child, builder.append("keySelector", key.left),
        comparator, implementor.getRootExpression())));
    return implementor.result(physType, builder.toBlock());
  }
}
