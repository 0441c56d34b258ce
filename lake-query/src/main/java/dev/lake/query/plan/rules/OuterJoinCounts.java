package dev.lake.query.plan.rules;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Counts the null-producing side of an outer join before the join (TPC-H Q13): an aggregate grouped by columns of
 * the preserved side, computing only {@code COUNT(x)} of columns of the other side, over a LEFT or RIGHT join on one
 * equality becomes
 *
 * <pre>
 *   Aggregate(preserved group columns; SUM0(c1), ...)
 *     LeftJoin(preserved.k = counts.j)
 *       preserved
 *       Aggregate(j; COUNT(x1) AS c1, ...) over the null-producing side
 * </pre>
 *
 * Each preserved row meets at most one row of counts: the counts of its matches, or none (NULL, summed as 0, what
 * COUNT of an unmatched row's NULLs gives); duplicates of a preserved row add their copies like the original join
 * did. Calcite's {@code AggregateJoinTransposeRule} leaves outer joins with aggregate functions alone. The rewritten
 * inner aggregate touches one table, so it is pushed down whole (1.5 million orders become 100,000 counts before
 * anything reaches Calcite's row-at-a-time join).
 */
public final class OuterJoinCounts {
  private OuterJoinCounts() {}

  /** {@code rel} with every such aggregate rewritten (inputs first). */
  public static RelNode rewrite(RelNode rel, RelBuilder builder) {
    List<RelNode> inputs = new ArrayList<>();
    boolean changed = false;
    for (RelNode input : rel.getInputs()) {
      RelNode rewritten = rewrite(input, builder);
      changed |= rewritten != input;
      inputs.add(rewritten);
    }
    RelNode current = changed ? rel.copy(rel.getTraitSet(), inputs) : rel;
    if (current instanceof Aggregate) {
      RelNode counted = preCount((Aggregate) current, builder);
      if (counted != null) {
        return counted;
      }
    }
    return current;
  }

  private static RelNode preCount(Aggregate aggregate, RelBuilder builder) {
    if (aggregate.getGroupType() != Aggregate.Group.SIMPLE || aggregate.getAggCallList().isEmpty()) {
      return null;
    }
    RelNode below = aggregate.getInput();
    int[] columns = null;
    if (below instanceof Project) {
      Project project = (Project) below;
      columns = new int[project.getProjects().size()];
      for (int i = 0; i < columns.length; i++) {
        RexNode expr = project.getProjects().get(i);
        if (!(expr instanceof RexInputRef)) {
          return null;
        }
        columns[i] = ((RexInputRef) expr).getIndex();
      }
      below = project.getInput();
    }
    if (!(below instanceof Join)) {
      return null;
    }
    Join join = (Join) below;
    if (join.getJoinType() != JoinRelType.LEFT && join.getJoinType() != JoinRelType.RIGHT) {
      return null;
    }
    JoinInfo info = join.analyzeCondition();
    if (!info.isEqui() || info.leftKeys.size() != 1) {
      return null;
    }
    boolean preservedLeft = join.getJoinType() == JoinRelType.LEFT;
    int leftWidth = join.getLeft().getRowType().getFieldCount();
    RelNode preserved = preservedLeft ? join.getLeft() : join.getRight();
    RelNode nullable = preservedLeft ? join.getRight() : join.getLeft();
    int preservedOffset = preservedLeft ? 0 : leftWidth;
    int nullableOffset = preservedLeft ? leftWidth : 0;
    int preservedWidth = preserved.getRowType().getFieldCount();
    int nullableWidth = nullable.getRowType().getFieldCount();
    int preservedKey = preservedLeft ? info.leftKeys.get(0) : info.rightKeys.get(0);
    int nullableKey = preservedLeft ? info.rightKeys.get(0) : info.leftKeys.get(0);

    List<Integer> groups = new ArrayList<>();
    for (int g : aggregate.getGroupSet()) {
      int column = (columns == null ? g : columns[g]) - preservedOffset;
      if (column < 0 || column >= preservedWidth) {
        return null;
      }
      groups.add(column);
    }
    if (!ascending(groups)) {
      return null;
    }
    List<Integer> counted = new ArrayList<>();
    for (AggregateCall call : aggregate.getAggCallList()) {
      if (call.getAggregation().getKind() != SqlKind.COUNT || call.getArgList().size() != 1 || call.isDistinct()
          || call.filterArg >= 0 || call.isApproximate()) {
        return null;
      }
      int argument = call.getArgList().get(0);
      int column = (columns == null ? argument : columns[argument]) - nullableOffset;
      if (column < 0 || column >= nullableWidth) {
        return null;
      }
      counted.add(column);
    }

    builder.push(nullable);
    List<RelBuilder.AggCall> counts = new ArrayList<>();
    for (int i = 0; i < counted.size(); i++) {
      counts.add(builder.count(false, "c" + i, builder.field(counted.get(i))));
    }
    builder.aggregate(builder.groupKey(nullableKey), counts);
    RelNode countsRel = builder.build();
    builder.push(preserved).push(countsRel);
    builder.join(JoinRelType.LEFT, builder.equals(builder.field(2, 0, preservedKey), builder.field(2, 1, 0)));
    List<RelBuilder.AggCall> sums = new ArrayList<>();
    for (int i = 0; i < counted.size(); i++) {
      sums.add(builder.aggregateCall(SqlStdOperatorTable.SUM0, builder.field(preservedWidth + 1 + i)));
    }
    builder.aggregate(builder.groupKey(ImmutableBitSet.of(groups)), sums);
    builder.convert(aggregate.getRowType(), true);
    return builder.build();
  }

  private static boolean ascending(List<Integer> columns) {
    for (int i = 1; i < columns.size(); i++) {
      if (columns.get(i) <= columns.get(i - 1)) {
        return false;
      }
    }
    return true;
  }
}
