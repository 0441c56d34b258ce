package dev.lake.query.plan;

import dev.lake.query.plan.enumerable.ExactRuntime;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexExecutor;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;

/**
 * Reduces constant expressions at planning time like Calcite's executor, except those holding LIKE or SIMILAR TO:
 * Calcite would evaluate them with a backtracking Java regex, outside any deadline. They stay in the plan and run
 * at execution time on lake's linear matcher ({@link dev.lake.query.plan.enumerable.RuntimeChecks}), where the
 * statement's timeout applies. So do the calls only lake's runtime computes exactly ({@link
 * ExactRuntime#exactOnlyAtRunTime}: casts to text, DECIMAL division, casts of doubles to integers; docs/api.md
 * "Exactness").
 */
final class BoundedRexExecutor implements RexExecutor {
  private final RexExecutor delegate;

  BoundedRexExecutor(RexExecutor delegate) {
    this.delegate = delegate;
  }

  @Override
  public void reduce(RexBuilder rexBuilder, List<RexNode> constExps, List<RexNode> reducedValues) {
    List<RexNode> reducible = new ArrayList<>();
    for (RexNode e : constExps) {
      if (!keptForRunTime(e)) {
        reducible.add(e);
      }
    }
    List<RexNode> reduced = new ArrayList<>();
    if (!reducible.isEmpty()) {
      delegate.reduce(rexBuilder, reducible, reduced);
    }
    int next = 0;
    for (RexNode e : constExps) {
      reducedValues.add(keptForRunTime(e) ? e : reduced.get(next++));
    }
  }

  private static boolean keptForRunTime(RexNode e) {
    return RexUtil.find(java.util.EnumSet.of(SqlKind.LIKE, SqlKind.SIMILAR)).contains(e)
        || ExactRuntime.exactOnlyAtRunTime(e);
  }
}
