package dev.lake.query.plan.rules;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.tools.RelBuilder;

/**
 * {@code EXISTS} and {@code NOT EXISTS} conjuncts of a filter whose sub-query is correlated by an equality and by a
 * condition that is not one (TPC-H Q21: {@code l2.l_orderkey = l1.l_orderkey AND l2.l_suppkey <> l1.l_suppkey}) become
 * semi and anti joins of the filter's input with the sub-query's table, on the correlated conditions:
 *
 * <pre>
 *   Filter(rest AND EXISTS(Filter(uncorrelated AND correlated, X)) AND NOT EXISTS(...))
 *   =&gt; AntiJoin(SemiJoin(Filter(rest, input), Filter(uncorrelated, X), correlated), ..., correlated)
 * </pre>
 *
 * Exact in three-valued logic: EXISTS is true when some row of X makes the condition true, which is what a semi join
 * keeps, and NOT EXISTS when none does (false or NULL for every row), what an anti join keeps; a sub-query's select
 * list does not matter to EXISTS. Calcite's decorrelation would otherwise join X with the distinct correlation values
 * of the outer rows (a value generator: for Q21 the outer lineitem rows' distinct order and supplier keys) and join
 * that back. Equality-only correlations keep Calcite's decorrelation (inner and outer joins with the sub-query's
 * distinct keys, which lake's vectorized join runs as they are). A condition of equalities and one {@code <>} between
 * a column and an outer field (Q21's exactly) joins the per-key MIN and MAX of that column instead ({@link
 * #extremes}): a row per key rather than every row of X. The planner applies it unless
 * {@code query.executor=calcite}, whose plans stay Calcite's own for comparisons.
 */
public final class CorrelatedSemiJoins {
  private CorrelatedSemiJoins() {}

  /** {@code rel} with every such filter rewritten (inputs first); sub-queries' own plans are left as they are. */
  public static RelNode rewrite(RelNode rel) {
    return rel.accept(new RelHomogeneousShuttle() {
      @Override
      public RelNode visit(RelNode other) {
        RelNode visited = super.visit(other);
        return visited instanceof LogicalFilter ? rewrite((LogicalFilter) visited) : visited;
      }
    });
  }

  private static RelNode rewrite(LogicalFilter filter) {
    Set<CorrelationId> ids = filter.getVariablesSet();
    if (ids.isEmpty()) {
      return filter;
    }
    RelNode input = filter.getInput();
    RexBuilder rexBuilder = filter.getCluster().getRexBuilder();
    List<RexNode> rest = new ArrayList<>();
    List<SemiJoin> semis = new ArrayList<>();
    List<JoinRelType> types = new ArrayList<>();
    for (RexNode conjunct : RelOptUtil.conjunctions(filter.getCondition())) {
      boolean anti = conjunct.getKind() == SqlKind.NOT;
      RexNode exists = anti ? ((RexCall) conjunct).getOperands().get(0) : conjunct;
      SemiJoin semi = exists instanceof RexSubQuery && exists.getKind() == SqlKind.EXISTS
          ? semiJoin(((RexSubQuery) exists).rel, ids, input, rexBuilder) : null;
      if (semi == null) {
        rest.add(conjunct);
      } else {
        semis.add(semi);
        types.add(anti ? JoinRelType.ANTI : JoinRelType.SEMI);
      }
    }
    if (semis.isEmpty()) {
      return filter;
    }
    RelNode out = rest.isEmpty() ? input
        : LogicalFilter.create(input, RexUtil.composeConjunction(rexBuilder, rest),
            com.google.common.collect.ImmutableSet.copyOf(ids));
    for (int i = 0; i < semis.size(); i++) {
      SemiJoin semi = semis.get(i);
      out = semi.differs() != null ? extremes(out, semi, types.get(i) == JoinRelType.ANTI)
          : LogicalJoin.create(out, semi.right(), List.of(), semi.condition(), Set.of(), types.get(i));
    }
    return out;
  }

  /**
   * The semi or anti join of {@code left} whose condition is equalities plus one {@code inner.c <> outer.d} (TPC-H
   * Q21), through the extremes of c per key: some row of the key's group has a c different from d exactly when d
   * differs from the group's MIN(c) or MAX(c) (both ignore NULLs; a NULL d, or a group of NULLs only, makes the
   * comparison NULL, which is no match). So the semi join is an inner join with {@code Aggregate(keys; MIN(c),
   * MAX(c))} — one row per key, so no left row is repeated — filtered by {@code d <> min OR d <> max}, and the anti
   * join the left join with it filtered by that condition not being true (an unmatched row's NULL extremes pass).
   * The aggregate holds a row per distinct key instead of every row of the sub-query's table.
   */
  private static RelNode extremes(RelNode left, SemiJoin semi, boolean anti) {
    int width = left.getRowType().getFieldCount();
    RelBuilder builder = RelFactories.LOGICAL_BUILDER.create(left.getCluster(), null);
    builder.push(left).push(semi.right());
    RexNode c = builder.field(semi.differs()[0]);
    builder.aggregate(builder.groupKey(semi.innerKeys()), builder.min(c), builder.max(c));
    int keys = semi.innerKeys().length;
    List<RexNode> equal = new ArrayList<>();
    for (int k = 0; k < keys; k++) {
      equal.add(builder.equals(builder.field(2, 0, semi.outerKeys()[k]), builder.field(2, 1, k)));
    }
    builder.join(anti ? JoinRelType.LEFT : JoinRelType.INNER, equal);
    RexNode d = builder.field(semi.differs()[1]);
    RexNode differs = builder.or(builder.notEquals(d, builder.field(width + keys)),
        builder.notEquals(d, builder.field(width + keys + 1)));
    builder.filter(anti ? builder.call(org.apache.calcite.sql.fun.SqlStdOperatorTable.IS_NOT_TRUE, differs)
        : differs);
    List<RexNode> kept = new ArrayList<>();
    for (int f = 0; f < width; f++) {
      kept.add(builder.field(f));
    }
    return builder.project(kept).build();
  }

  /**
   * The sub-query's table and the join condition over the outer row then its row; when that condition is only
   * equalities {@code inner[i] = outer[i]} and one {@code inner c <> outer d} of one type, also those
   * ({@code differs}: c, then d; null otherwise).
   */
  private record SemiJoin(RelNode right, RexNode condition, int[] innerKeys, int[] outerKeys, int[] differs) {}

  /**
   * {@code sub} ({@code [Project*] Filter(condition, X)} with X uncorrelated) as a semi join's right input and
   * condition, or null when it has another shape or its correlation is not an equality plus a non-equi condition.
   */
  private static SemiJoin semiJoin(RelNode sub, Set<CorrelationId> ids, RelNode outer, RexBuilder rexBuilder) {
    RelNode rel = sub;
    while (rel instanceof LogicalProject) {
      for (RexNode expr : ((LogicalProject) rel).getProjects()) {
        if (correlated(expr) || RexUtil.SubQueryFinder.find(expr) != null) {
          return null;
        }
      }
      rel = ((LogicalProject) rel).getInput();
    }
    if (!(rel instanceof LogicalFilter)) {
      return null;
    }
    LogicalFilter inner = (LogicalFilter) rel;
    RelNode table = inner.getInput();
    if (!inner.getVariablesSet().isEmpty() || RexUtil.SubQueryFinder.find(inner.getCondition()) != null
        || !RelOptUtil.getVariablesUsed(table).isEmpty()) {
      return null;
    }
    int width = outer.getRowType().getFieldCount();
    List<RexNode> uncorrelated = new ArrayList<>();
    List<RexNode> correlated = new ArrayList<>();
    boolean equality = false;
    int others = 0;
    List<Integer> innerKeys = new ArrayList<>();
    List<Integer> outerKeys = new ArrayList<>();
    int[] differs = null;
    for (RexNode conjunct : RelOptUtil.conjunctions(inner.getCondition())) {
      if (!correlated(conjunct)) {
        uncorrelated.add(conjunct);
        continue;
      }
      if (!onlyOuter(conjunct, ids, width)) {
        return null;
      }
      int[] pair = conjunct instanceof RexCall && oneSideEach((RexCall) conjunct) ? pair((RexCall) conjunct) : null;
      boolean equi = conjunct.getKind() == SqlKind.EQUALS && pair != null;
      if (equi && !innerKeys.contains(pair[0])) {
        innerKeys.add(pair[0]);
        outerKeys.add(pair[1]);
      } else if (equi) {
        others++;
      }
      if (!equi) {
        others++;
        differs = conjunct.getKind() == SqlKind.NOT_EQUALS && pair != null && sameType((RexCall) conjunct) ? pair
            : null;
      }
      equality |= equi;
      correlated.add(conjunct);
    }
    if (!equality || others == 0) {
      return null;
    }
    RelNode right = uncorrelated.isEmpty() ? table
        : LogicalFilter.create(table, RexUtil.composeConjunction(rexBuilder, uncorrelated));
    RexNode condition = RexUtil.composeConjunction(rexBuilder, correlated).accept(new RexShuttle() {
      @Override
      public RexNode visitInputRef(RexInputRef ref) {
        return new RexInputRef(ref.getIndex() + width, ref.getType());
      }

      @Override
      public RexNode visitFieldAccess(RexFieldAccess access) {
        int field = access.getField().getIndex();
        return new RexInputRef(field, outer.getRowType().getFieldList().get(field).getType());
      }
    });
    boolean extremes = others == 1 && differs != null;
    return new SemiJoin(right, condition, innerKeys.stream().mapToInt(Integer::intValue).toArray(),
        outerKeys.stream().mapToInt(Integer::intValue).toArray(), extremes ? differs : null);
  }

  /** The inner table's column and the outer row's field a comparison of one with the other reads. */
  private static int[] pair(RexCall call) {
    RexNode a = call.getOperands().get(0);
    RexNode b = call.getOperands().get(1);
    RexNode inner = a instanceof RexInputRef ? a : b;
    RexNode outer = inner == a ? b : a;
    return new int[] {((RexInputRef) inner).getIndex(), ((RexFieldAccess) outer).getField().getIndex()};
  }

  /** Whether both operands of {@code call} have one SQL type (MIN and MAX then compare like the rows do). */
  private static boolean sameType(RexCall call) {
    return call.getOperands().get(0).getType().getSqlTypeName() == call.getOperands().get(1).getType()
        .getSqlTypeName();
  }

  /** Whether {@code node} reads a correlation variable. */
  private static boolean correlated(RexNode node) {
    return RexUtil.containsCorrelation(node);
  }

  /**
   * Whether every correlation variable {@code node} reads is one of {@code ids}, read as a field of the outer row
   * ({@code width} fields, with their types).
   */
  private static boolean onlyOuter(RexNode node, Set<CorrelationId> ids, int width) {
    boolean[] ok = {true};
    node.accept(new RexVisitorImpl<Void>(true) {
      @Override
      public Void visitFieldAccess(RexFieldAccess access) {
        if (access.getReferenceExpr() instanceof RexCorrelVariable) {
          RexCorrelVariable variable = (RexCorrelVariable) access.getReferenceExpr();
          ok[0] &= ids.contains(variable.id) && variable.getType().getFieldCount() == width;
          return null;
        }
        return super.visitFieldAccess(access);
      }

      @Override
      public Void visitCorrelVariable(RexCorrelVariable variable) {
        ok[0] = false;
        return null;
      }
    });
    return ok[0];
  }

  /** Whether an equality compares a column of the sub-query's table with a field of the outer row. */
  private static boolean oneSideEach(RexCall equals) {
    RexNode a = equals.getOperands().get(0);
    RexNode b = equals.getOperands().get(1);
    return a instanceof RexInputRef && outerField(b) || b instanceof RexInputRef && outerField(a);
  }

  private static boolean outerField(RexNode node) {
    return node instanceof RexFieldAccess && ((RexFieldAccess) node).getReferenceExpr() instanceof RexCorrelVariable;
  }
}
