package dev.lake.query.plan.enumerable;

import dev.lake.query.guard.LikeFunctions;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableAggregate;
import org.apache.calcite.adapter.enumerable.EnumerableCollect;
import org.apache.calcite.adapter.enumerable.EnumerableHashJoin;
import org.apache.calcite.adapter.enumerable.EnumerableIntersect;
import org.apache.calcite.adapter.enumerable.EnumerableMinus;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableSort;
import org.apache.calcite.adapter.enumerable.EnumerableTableSpool;
import org.apache.calcite.adapter.enumerable.EnumerableUnion;
import org.apache.calcite.adapter.enumerable.EnumerableWindow;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

/**
 * Makes a physical plan safe to run before it is compiled (never before EXPLAIN prints it): an
 * {@link EnumerableCheckpoint} goes on every input of every Calcite operator, so each row an operator consumes polls
 * the statement's stop flag, and the rows an operator keeps (a hash join's build side, a sort's input, a grouping
 * aggregate's, a distinct set operation's, a window's) are charged to the query's memory budget; and every LIKE and
 * SIMILAR TO that Calcite's runtime would evaluate with a backtracking Java regex calls lake's linear-time matcher
 * ({@link LikeFunctions}) instead; a full sort is lake's {@link EnumerableSpillingSort}; a VALUES of many rows is stashed, not generated ({@link EnumerableStashedValues}).
 * lake's own operators keep their direct inputs (they read them by shape).
 */
public final class RuntimeChecks {
  private RuntimeChecks() {}

  public static EnumerableRel apply(EnumerableRel physical) {
    return (EnumerableRel) rewrite(physical);
  }

  private static RelNode rewrite(RelNode rel) {
    if (rel instanceof org.apache.calcite.adapter.enumerable.EnumerableValues values) {
      // many rows (an IN list planned as a set): stashed, not generated into the code
      return EnumerableStashedValues.of(values).orElse(rel);
    }
    if (rel instanceof EnumerableSort sort && sort.fetch == null && sort.offset == null) {
      // a full sort: lake's, which spills past the memory limit (its input checked for the stop flag, not charged)
      return new EnumerableSpillingSort(new EnumerableCheckpoint(rewrite(sort.getInput()), false),
          sort.getCollation());
    }
    boolean calcite = rel.getClass().getPackageName().equals("org.apache.calcite.adapter.enumerable");
    List<RelNode> inputs = new ArrayList<>();
    for (int i = 0; i < rel.getInputs().size(); i++) {
      RelNode input = rewrite(rel.getInput(i));
      inputs.add(calcite ? new EnumerableCheckpoint(input, retains(rel, i)) : input);
    }
    RelNode copy = inputs.isEmpty() ? rel : rel.copy(rel.getTraitSet(), inputs);
    return calcite ? copy.accept(new LinearLike(rel.getCluster().getRexBuilder())) : copy;
  }

  /** Whether {@code rel} keeps the rows of its input {@code i} until it has read them all. */
  private static boolean retains(RelNode rel, int i) {
    if (rel instanceof EnumerableHashJoin) {
      return i == 1;
    }
    if (rel instanceof EnumerableAggregate aggregate) {
      return !aggregate.getGroupSet().isEmpty();
    }
    if (rel instanceof EnumerableUnion union) {
      return !union.all;
    }
    return rel instanceof EnumerableSort && ((EnumerableSort) rel).fetch == null
        || rel instanceof EnumerableIntersect || rel instanceof EnumerableMinus || rel instanceof EnumerableWindow
        || rel instanceof EnumerableCollect || rel instanceof EnumerableTableSpool;
  }

  /** LIKE, NOT LIKE, SIMILAR TO and NOT SIMILAR TO as calls of {@link LikeFunctions}. */
  private static final class LinearLike extends RexShuttle {
    private final RexBuilder rex;

    LinearLike(RexBuilder rex) {
      this.rex = rex;
    }

    @Override
    public RexNode visitCall(RexCall call) {
      RexCall visited = (RexCall) super.visitCall(call);
      SqlOperator op = visited.getOperator();
      boolean like = op == SqlStdOperatorTable.LIKE || op == SqlStdOperatorTable.NOT_LIKE;
      boolean similar = op == SqlStdOperatorTable.SIMILAR_TO || op == SqlStdOperatorTable.NOT_SIMILAR_TO;
      if (!like && !similar) {
        return visited;
      }
      boolean negated = op == SqlStdOperatorTable.NOT_LIKE || op == SqlStdOperatorTable.NOT_SIMILAR_TO;
      RexNode matched = rex.makeCall(visited.getType(), LikeFunctions.operator(like, visited.getOperands().size() > 2),
          visited.getOperands());
      return negated ? rex.makeCall(visited.getType(), SqlStdOperatorTable.NOT, List.of(matched)) : matched;
    }
  }
}
