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
 * {@code EXISTS} and {@code NOT EXISTS} conjuncts of a filter whose sub-query is correlated by an equality and by
 * conditions that are not one (say {@code l2.l_orderkey = l1.l_orderkey AND l2.l_suppkey <> l1.l_suppkey AND
 * l2.l_quantity > l1.l_quantity}) become
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
 * distinct keys, which lake's vectorized join runs as they are). Q21's own shape — equalities and one {@code <>}
 * between a column and an outer field — joins each key's MIN and MAX of that column instead of every row
 * ({@link #distinctOther}): the whole table as a build side passed the query's memory limit at SF 1, and Calcite's
 * value generator ran Q21 as four nested joins over lineitem. The planner applies it unless
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
    List<RelNode> rights = new ArrayList<>();
    List<RexNode> conditions = new ArrayList<>();
    List<JoinRelType> types = new ArrayList<>();
    for (RexNode conjunct : RelOptUtil.conjunctions(filter.getCondition())) {
      boolean anti = conjunct.getKind() == SqlKind.NOT;
      RexNode exists = anti ? ((RexCall) conjunct).getOperands().get(0) : conjunct;
      SemiJoin semi = exists instanceof RexSubQuery && exists.getKind() == SqlKind.EXISTS
          ? semiJoin(((RexSubQuery) exists).rel, ids, input, rexBuilder) : null;
      if (semi == null) {
        rest.add(conjunct);
      } else {
        rights.add(semi.right());
        conditions.add(semi.condition());
        types.add(anti ? JoinRelType.ANTI : JoinRelType.SEMI);
      }
    }
    if (rights.isEmpty()) {
      return filter;
    }
    RelNode out = rest.isEmpty() ? input
        : LogicalFilter.create(input, RexUtil.composeConjunction(rexBuilder, rest),
            com.google.common.collect.ImmutableSet.copyOf(ids));
    for (int i = 0; i < rights.size(); i++) {
      out = LogicalJoin.create(out, rights.get(i), List.of(), conditions.get(i), Set.of(), types.get(i));
    }
    return out;
  }

  /** The sub-query's table and the join condition over the outer row then its row. */
  private record SemiJoin(RelNode right, RexNode condition) {}

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
    boolean notEqual = false;
    for (RexNode conjunct : RelOptUtil.conjunctions(inner.getCondition())) {
      if (!correlated(conjunct)) {
        uncorrelated.add(conjunct);
        continue;
      }
      if (!onlyOuter(conjunct, ids, width)) {
        return null;
      }
      boolean equi = conjunct.getKind() == SqlKind.EQUALS && oneSideEach((RexCall) conjunct);
      equality |= equi;
      if (!equi) {
        others++;
        notEqual = conjunct.getKind() == SqlKind.NOT_EQUALS && oneSideEach((RexCall) conjunct);
      }
      correlated.add(conjunct);
    }
    if (!equality || others == 0) {
      return null;
    }
    if (others == 1 && notEqual) {
      return distinctOther(table, uncorrelated, correlated, outer, rexBuilder);
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
    return new SemiJoin(right, condition);
  }

  /**
   * A correlation of equalities {@code k_i = outer.a_i} and one {@code x <> outer.y} (TPC-H Q21: another supplier of
   * the same order) as a join with {@code Aggregate(k; MIN(x), MAX(x))} over the rows with a non-NULL x, on
   * {@code k_i = outer.a_i AND (outer.y <> MIN(x) OR outer.y <> MAX(x))}. Exact in three-valued logic: a row with a
   * NULL x never makes {@code x <> y} true, so leaving it out changes nothing; among the others some x differs from
   * y exactly when the least or the greatest does; and a NULL y makes both comparisons NULL, as it makes every
   * {@code x <> y}. The build side is one row per key instead of every row, and {@link
   * dev.lake.query.plan.vector.ProbeJoins} reduces it further to the outer rows' keys.
   */
  private static SemiJoin distinctOther(RelNode table, List<RexNode> uncorrelated, List<RexNode> correlated,
      RelNode outer, RexBuilder rexBuilder) {
    int width = outer.getRowType().getFieldCount();
    List<Integer> keys = new ArrayList<>();
    RexCall other = null;
    for (RexNode conjunct : correlated) {
      RexCall call = (RexCall) conjunct;
      if (call.getKind() == SqlKind.NOT_EQUALS) {
        other = call;
      } else {
        int column = innerColumn(call);
        if (!keys.contains(column)) {
          keys.add(column);
        }
      }
    }
    int x = innerColumn(other);
    RelBuilder builder = RelFactories.LOGICAL_BUILDER.create(table.getCluster(), null);
    builder.push(table);
    List<RexNode> kept = new ArrayList<>(uncorrelated);
    kept.add(builder.isNotNull(builder.field(x)));
    builder.filter(kept);
    // The group columns come out in column order, then MIN and MAX.
    builder.aggregate(builder.groupKey(keys.stream().mapToInt(Integer::intValue).toArray()),
        builder.min(builder.field(x)), builder.max(builder.field(x)));
    RelNode aggregate = builder.build();
    List<Integer> sorted = keys.stream().sorted().toList();
    List<RexNode> conditions = new ArrayList<>();
    for (RexNode conjunct : correlated) {
      if (conjunct != other) {
        conditions.add(toJoin(conjunct, outer, aggregate, width, column -> sorted.indexOf(column)));
      }
    }
    int groups = sorted.size();
    RexNode minMatch = toJoin(other, outer, aggregate, width, column -> groups);
    RexNode maxMatch = toJoin(other, outer, aggregate, width, column -> groups + 1);
    conditions.add(rexBuilder.makeCall(org.apache.calcite.sql.fun.SqlStdOperatorTable.OR, minMatch, maxMatch));
    return new SemiJoin(aggregate, RexUtil.composeConjunction(rexBuilder, conditions));
  }

  /** The sub-query table's column an equality or inequality with an outer field compares. */
  private static int innerColumn(RexCall call) {
    RexNode a = call.getOperands().get(0);
    return ((RexInputRef) (a instanceof RexInputRef ? a : call.getOperands().get(1))).getIndex();
  }

  /**
   * {@code conjunct} over the outer row then {@code right}'s row: outer fields become the outer row's columns, and
   * the sub-query table's column {@code c} becomes {@code right}'s column {@code position(c)}.
   */
  private static RexNode toJoin(RexNode conjunct, RelNode outer, RelNode right, int width,
      java.util.function.IntUnaryOperator position) {
    return conjunct.accept(new RexShuttle() {
      @Override
      public RexNode visitInputRef(RexInputRef ref) {
        int field = position.applyAsInt(ref.getIndex());
        return new RexInputRef(width + field, right.getRowType().getFieldList().get(field).getType());
      }

      @Override
      public RexNode visitFieldAccess(RexFieldAccess access) {
        int field = access.getField().getIndex();
        return new RexInputRef(field, outer.getRowType().getFieldList().get(field).getType());
      }
    });
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
